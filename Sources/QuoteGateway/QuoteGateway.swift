import Foundation
import Kafka
import QuoteContract
import Synchronization

/// What a gateway embeds: it produces address-change events keyed by session and reads the
/// replies, keeping only the answer to the newest sequence it sent for each session.
///
/// One producer and one reply reader serve every session. The reader is not in a consumer group:
/// it reads every partition of the reply topic from where it stood when the gateway started, so
/// no reply produced after that can be missed while a group would still be joining.
public final class QuoteGateway: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var kafka: KafkaConfiguration
        public var eventsTopic: String
        public var repliesTopic: String

        public init(kafka: KafkaConfiguration, eventsTopic: String = Topics.defaultAddressChanged,
                    repliesTopic: String = Topics.defaultQuoteReplies) {
            self.kafka = kafka
            self.eventsTopic = eventsTopic
            self.repliesTopic = repliesTopic
        }
    }

    /// How a wait for a reply ended. (The async `quote` throws `GatewayError.timedOut` instead.)
    public enum Answer: Sendable {
        case reply(QuoteReply)
        /// A newer event of the same session was sent meanwhile; this one's answer no longer matters.
        case superseded(byNewerSequence: Int64)
        case timedOut
    }

    private let configuration: Configuration
    private let producer: KafkaProducer
    private let reader: KafkaConsumer
    private let book = ReplyBook()
    private let readerStop = Atomic<Bool>(false)
    private let readerDone = DispatchSemaphore(value: 0)
    private let readerStarted = Atomic<Bool>(false)

    public init(configuration: Configuration) throws(KafkaError) {
        self.configuration = configuration
        var producerConfig = configuration.kafka
        producerConfig.setDefault("linger.ms", "1")
        producer = try KafkaProducer(configuration: producerConfig)
        var readerConfig = configuration.kafka
        // librdkafka needs a group id even for a manual assignment; this one is never joined or committed.
        readerConfig["group.id"] = "shipquote-gateway-reader-\(UUID().uuidString.lowercased())"
        readerConfig.setDefault("fetch.wait.max.ms", "5")
        reader = try KafkaConsumer(configuration: readerConfig) { _ in }
        let topic = configuration.repliesTopic
        let count = try reader.partitionCount(topic)
        var start: [KafkaTopicPartition: Int64] = [:]
        for p in 0..<Int32(count) {
            let tp = KafkaTopicPartition(topic, p)
            start[tp] = try reader.watermarks(tp).high
        }
        try reader.assign(start)
        let thread = Thread { [self] in readReplies() }
        thread.name = "gateway-reply-reader"
        readerStarted.store(true, ordering: .releasing)
        thread.start()
    }

    deinit { close() }

    public func close() {
        guard !readerStop.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // An init that failed half-way never started the reader.
        if readerStarted.load(ordering: .acquiring) { readerDone.wait() }
        reader.close()
        producer.close(timeoutMs: 5_000)
    }

    /// Produces the event (keyed by its session) and waits until the broker has it. From now on, a
    /// reply to an older sequence of the same session is ignored.
    public func send(_ event: AddressChangeEvent, traceparent: String? = nil) throws(KafkaError) {
        try send(bytes: event.encode(), sessionID: event.sessionID, sequence: event.sequence, traceparent: traceparent)
    }

    /// Produces raw bytes as an event of `sessionID` (a malformed event in a demo, say).
    public func send(bytes: [UInt8], sessionID: String, sequence: Int64?, traceparent: String? = nil) throws(KafkaError) {
        if let sequence { book.sent(session: sessionID, sequence: sequence) }
        var headers: [KafkaHeader] = []
        if let traceparent { headers.append(KafkaHeader(ContractHeader.traceparent, traceparent)) }
        let delivered = DispatchSemaphore(value: 0)
        let outcome = Mutex<KafkaDeliveryReport?>(nil)
        try producer.send(KafkaOutgoingMessage(topic: configuration.eventsTopic, key: Array(sessionID.utf8),
                                          value: bytes, headers: headers)) { report in
            outcome.withLock { $0 = report }
            delivered.signal()
        }
        delivered.wait()
        if case .failed(let error) = outcome.withLock({ $0 }) { throw error }
    }

    /// Produces several events at once (waiting only once for all deliveries), as a customer
    /// tapping addresses quickly would.
    public func send(_ events: [AddressChangeEvent]) throws(KafkaError) {
        let group = DispatchGroup()
        let failure = Mutex<KafkaError?>(nil)
        for event in events {
            book.sent(session: event.sessionID, sequence: event.sequence)
            group.enter()
            try producer.send(KafkaOutgoingMessage(topic: configuration.eventsTopic, key: Array(event.sessionID.utf8),
                                              value: event.encode())) { report in
                if case .failed(let error) = report { failure.withLock { $0 = error } }
                group.leave()
            }
        }
        group.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Waits for the reply to `sequence` of `sessionID`.
    public func awaitReply(sessionID: String, sequence: Int64, timeout: Duration) -> Answer {
        book.waitForReply(session: sessionID, sequence: sequence, until: ContinuousClock.now + timeout)
    }

    /// Sends the event and waits for its reply.
    public func quote(_ event: AddressChangeEvent, timeout: Duration) throws(KafkaError) -> Answer {
        try send(event)
        return awaitReply(sessionID: event.sessionID, sequence: event.sequence, timeout: timeout)
    }

    /// The next sequence for `sessionID`: one above the highest this gateway has sent.
    ///
    /// Sequences must grow per session across every gateway instance that sends for it. One
    /// instance serving a session (sticky routing by session) can rely on this counter; several
    /// instances must persist the last sequence per session where they all see it (the checkout
    /// session store, say) and take the next one from there.
    public func nextSequence(for sessionID: String) -> Int64 { book.nextSequence(for: sessionID) }

    /// Sends the event and awaits the reply to exactly its sequence.
    ///
    /// Returns `.superseded` as soon as a newer event of the same session is sent (through this
    /// gateway): only the answer to the latest address matters. Throws `.timedOut` at the event's
    /// `reply_by`, or after `defaultWait` when it has none.
    public func quote(_ event: AddressChangeEvent, defaultWait: Duration = .seconds(25)) async throws(GatewayError) -> Answer {
        do { try await sendAsync(event) } catch { throw .kafka(error) }
        let deadline: ContinuousClock.Instant
        if let replyBy = event.replyBy {
            deadline = .now + .milliseconds(max(0, Int64(replyBy.timeIntervalSinceNow * 1000)))
        } else {
            deadline = .now + defaultWait
        }
        let book = self.book, session = event.sessionID, sequence = event.sequence
        let waiterID = Mutex<UInt64?>(nil)
        let answer: Answer = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
                let id = book.register(session: session, sequence: sequence) { continuation.resume(returning: $0) }
                guard let id else { return }
                waiterID.withLock { $0 = id }
                Task {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    book.expire(session: session, waiter: id, with: .timedOut)
                }
            }
        } onCancel: {
            if let id = waiterID.withLock({ $0 }) { book.expire(session: session, waiter: id, with: .timedOut) }
        }
        if Task.isCancelled, case .timedOut = answer { throw .cancelled }
        if case .timedOut = answer { throw .timedOut(sessionID: session, sequence: sequence) }
        return answer
    }

    private func sendAsync(_ event: AddressChangeEvent) async throws(KafkaError) {
        book.sent(session: event.sessionID, sequence: event.sequence)
        let message = KafkaOutgoingMessage(topic: configuration.eventsTopic, key: Array(event.sessionID.utf8), value: event.encode())
        let report: KafkaDeliveryReport
        do {
            report = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<KafkaDeliveryReport, any Error>) in
                do { try producer.send(message) { continuation.resume(returning: $0) } } catch { continuation.resume(throwing: error) }
            }
        } catch let error as KafkaError {
            throw error
        } catch {
            throw KafkaError.invalidConfiguration("\(error)")
        }
        if case .failed(let error) = report { throw error }
    }

    /// Replies that arrived for a sequence older than the newest one sent, and were ignored.
    public var ignoredStaleReplies: [QuoteReply] { book.ignored }

    private func readReplies() {
        var lastPrune = ContinuousClock.now
        while !readerStop.load(ordering: .acquiring) {
            for message in reader.poll(maxMessages: 500, timeoutMs: 50) {
                guard let reply = try? QuoteReply.decode(message.value) else { continue }
                book.received(reply)
            }
            if ContinuousClock.now - lastPrune > .seconds(30) {
                book.prune(idle: .seconds(3600))
                lastPrune = .now
            }
        }
        readerDone.signal()
    }
}

