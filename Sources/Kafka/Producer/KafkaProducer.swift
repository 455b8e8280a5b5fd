import CRdKafka
import Foundation
import Synchronization

/// An idempotent producer: records of one partition are written once and in order, even when
/// librdkafka retries. Delivery reports arrive on the producer's own polling thread.
/// Sendable: librdkafka's producer calls are thread-safe, and the Swift state (`pollLoop`,
/// `closeOnce`) is atomic or under its mutex.
public final class KafkaProducer: @unchecked Sendable {
    private let rk: OpaquePointer
    private let callbacks: ClientCallbacks
    private let pollLoop = PollLoop()
    private let closeOnce = Mutex(false)

    public init(configuration: KafkaConfiguration, log: KafkaLogSink? = nil,
                onError: (@Sendable (KafkaError) -> Void)? = nil,
                onStatistics: (@Sendable (String) -> Void)? = nil) throws(KafkaError) {
        var config = configuration
        config.setDefault("enable.idempotence", "true")
        config.setDefault("log.connection.close", "false")
        callbacks = ClientCallbacks(log: log, onError: onError, onStatistics: onStatistics)
        let conf = try makeNativeConfiguration(config)
        callbacks.install(on: conf)
        rd_kafka_conf_set_dr_msg_cb(conf) { _, message, _ in
            guard let message, let opaque = message.pointee._private else { return }
            let pending = Unmanaged<PendingDelivery>.fromOpaque(opaque).takeRetainedValue()
            let m = message.pointee
            if m.err == RD_KAFKA_RESP_ERR_NO_ERROR {
                pending.completion(.delivered(partition: m.partition, offset: m.offset))
            } else {
                pending.completion(.failed(KafkaError(m.err, context: "deliver record", isRetriable: true)))
            }
        }
        rk = try makeClient(RD_KAFKA_PRODUCER, conf: conf)
        let handle = UnsafeSendable(rk)
        let thread = Thread { [pollLoop] in
            while pollLoop.running.load(ordering: .acquiring) { rd_kafka_poll(handle.value, 50) }
            pollLoop.done.signal()
        }
        thread.name = "kafka-producer-poll"
        thread.start()
    }

    deinit {
        close(timeoutMs: 10_000)
        rd_kafka_destroy(rk)
    }

    /// Queues a record; `completion` runs once with its delivery report. When librdkafka's queue
    /// is full this waits for room (backpressure) instead of dropping, until `close`.
    public func send(_ message: KafkaOutgoingMessage, completion: @escaping @Sendable (KafkaDeliveryReport) -> Void) throws(KafkaError) {
        try send(message, waitForRoom: true, completion: completion)
    }

    /// Queues a record only if there is room now; returns false (and keeps nothing) when the queue
    /// is full. For delivery-report handlers, which must never wait for the queue they drain.
    public func sendIfRoom(_ message: KafkaOutgoingMessage, completion: @escaping @Sendable (KafkaDeliveryReport) -> Void) throws(KafkaError) -> Bool {
        do {
            try send(message, waitForRoom: false, completion: completion)
            return true
        } catch where error.code == RD_KAFKA_RESP_ERR__QUEUE_FULL.rawValue {
            return false
        }
    }

    private func send(_ message: KafkaOutgoingMessage, waitForRoom: Bool,
                      completion: @escaping @Sendable (KafkaDeliveryReport) -> Void) throws(KafkaError) {
        let opaque = Unmanaged.passRetained(PendingDelivery(completion)).toOpaque()
        var err = RD_KAFKA_RESP_ERR_NO_ERROR
        repeat {
            err = enqueue(message, opaque: opaque)
            if err == RD_KAFKA_RESP_ERR__QUEUE_FULL {
                guard waitForRoom, pollLoop.running.load(ordering: .acquiring) else { break }
                usleep(1_000)  // the polling thread drains delivery reports meanwhile
            }
        } while err == RD_KAFKA_RESP_ERR__QUEUE_FULL
        if err != RD_KAFKA_RESP_ERR_NO_ERROR {
            Unmanaged<PendingDelivery>.fromOpaque(opaque).release()
            throw KafkaError(err, context: "produce to \(message.topic)", isFatal: err == RD_KAFKA_RESP_ERR__FATAL)
        }
    }

    private func enqueue(_ message: KafkaOutgoingMessage, opaque: UnsafeMutableRawPointer) -> rd_kafka_resp_err_t {
        let headers: OpaquePointer? = message.headers.isEmpty ? nil : rd_kafka_headers_new(message.headers.count)
        // Names go to C through `withCString`: a String passed where C wants a `char *` is first
        // copied into a new array, an allocation per name and per record.
        if let headers {
            for header in message.headers {
                header.name.withCString { name in
                    if let value = header.value {
                        value.withUnsafeBytes { _ = rd_kafka_header_add(headers, name, -1, $0.baseAddress, $0.count) }
                    } else {
                        _ = rd_kafka_header_add(headers, name, -1, nil, 0)
                    }
                }
            }
        }
        let partition = message.partition ?? RD_KAFKA_PARTITION_UA
        let err = withOptionalBytes(message.isTombstone ? nil : message.value) { value in
            withOptionalBytes(message.key) { key in
                message.topic.withCString { topic in
                    shipquote_produce(rk, topic, partition, key.baseAddress, key.count, value.baseAddress, value.count, headers, opaque)
                }
            }
        }
        // On success the record owns the headers; otherwise they are still ours.
        if err != RD_KAFKA_RESP_ERR_NO_ERROR, let headers { rd_kafka_headers_destroy(headers) }
        return err
    }

    /// Records queued or in flight, not yet reported.
    public var queueLength: Int { Int(rd_kafka_outq_len(rk)) }

    /// Waits until every queued record has its delivery report, or the timeout passes.
    @discardableResult
    public func flush(timeoutMs: Int32) -> Bool {
        rd_kafka_flush(rk, timeoutMs) == RD_KAFKA_RESP_ERR_NO_ERROR
    }

    /// The fatal error that ended this producer (idempotence broken, fenced), if any: such a
    /// producer must be replaced.
    public var fatalError: KafkaError? {
        var errstr = [CChar](repeating: 0, count: 512)
        let err = rd_kafka_fatal_error(rk, &errstr, errstr.count)
        return err == RD_KAFKA_RESP_ERR_NO_ERROR ? nil : KafkaError(err, context: text(of: errstr), isFatal: true)
    }

    /// Flushes what is queued (up to the timeout) and stops the polling thread.
    public func close(timeoutMs: Int32) {
        let first = closeOnce.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        rd_kafka_flush(rk, timeoutMs)
        // What could not be delivered in time is purged, so every completion still runs (with a
        // purge error) instead of being dropped with the handle.
        rd_kafka_purge(rk, Int32(RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT))
        pollLoop.running.store(false, ordering: .releasing)
        pollLoop.done.wait()
        // Serve the reports that arrived after the last poll, purged ones included.
        var rounds = 0
        while rd_kafka_outq_len(rk) > 0 && rounds < 100 {
            rd_kafka_poll(rk, 10)
            rounds += 1
        }
        rd_kafka_poll(rk, 0)
    }
}

/// The producer's polling thread: it serves delivery reports until told to stop.
final class PollLoop: Sendable {
    let running = Atomic<Bool>(true)
    let done = DispatchSemaphore(value: 0)
}

/// Lends an optional byte array's storage (a nil array lends an empty buffer with no address).
func withOptionalBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    guard let bytes else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
    return bytes.withUnsafeBytes(body)
}

/// A C handle that librdkafka documents as safe to use from several threads.
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
