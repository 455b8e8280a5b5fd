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

    /// How a wait for a reply ended.
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
        var start: [TopicPartition: Int64] = [:]
        for p in 0..<Int32(count) {
            let tp = TopicPartition(topic, p)
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
        let outcome = Mutex<DeliveryReport?>(nil)
        try producer.send(OutgoingMessage(topic: configuration.eventsTopic, key: Array(sessionID.utf8),
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
            try producer.send(OutgoingMessage(topic: configuration.eventsTopic, key: Array(event.sessionID.utf8),
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

    /// Replies that arrived for a sequence older than the newest one sent, and were ignored.
    public var ignoredStaleReplies: [QuoteReply] { book.ignored }

    private func readReplies() {
        while !readerStop.load(ordering: .acquiring) {
            for message in reader.poll(maxMessages: 500, timeoutMs: 50) {
                guard let reply = try? QuoteReply.decode(message.value) else { continue }
                book.received(reply)
            }
        }
        readerDone.signal()
    }
}

/// The replies received and the newest sequence sent, per session.
final class ReplyBook: @unchecked Sendable {
    private let condition = NSCondition()
    private var latestSent: [String: Int64] = [:]
    private var replies: [String: QuoteReply] = [:]
    private(set) var ignoredReplies: [QuoteReply] = []

    var ignored: [QuoteReply] { condition.withLock { ignoredReplies } }

    func sent(session: String, sequence: Int64) {
        condition.withLock { latestSent[session] = max(latestSent[session] ?? 0, sequence) }
    }

    func received(_ reply: QuoteReply) {
        condition.withLock {
            if let latest = latestSent[reply.sessionID], reply.sequence < latest {
                ignoredReplies.append(reply)
            } else if (replies[reply.sessionID]?.sequence ?? 0) <= reply.sequence {
                replies[reply.sessionID] = reply
            }
            condition.broadcast()
        }
    }

    func waitForReply(session: String, sequence: Int64, until deadline: ContinuousClock.Instant) -> QuoteGateway.Answer {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let latest = latestSent[session], latest > sequence { return .superseded(byNewerSequence: latest) }
            if let reply = replies[session], reply.sequence == sequence { return .reply(reply) }
            let now = ContinuousClock.now
            if now >= deadline { return .timedOut }
            // Wake at least every 100 ms to look at the deadline again.
            _ = now
            _ = condition.wait(until: Date().addingTimeInterval(0.1))
        }
    }
}
