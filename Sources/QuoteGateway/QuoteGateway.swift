import Foundation
import Kafka
import QuoteContract
import Synchronization

/// What a gateway embeds: it produces address-change events keyed by session and reads the
/// replies, keeping only the answer to the newest sequence it sent for each session.
///
/// Making one starts nothing: the Kafka clients and the reply reader's thread start on `start()`
/// or on the first call. Every call is async; librdkafka's logs go to the caller's `log` sink and
/// client errors to `onClientError`. A client that fails for good ends every pending call with
/// `GatewayError.clientFailed`.
public final class QuoteGateway: Sendable {
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

    /// How a wait for a reply ended. (No reply in time throws `GatewayError.timedOut`.)
    public enum Answer: Sendable {
        case reply(QuoteReply)
        /// A newer event of the same session was sent meanwhile; this one's answer no longer matters.
        case superseded(byNewerSequence: Int64)
    }

    private enum State {
        case idle
        case started(GatewayClients)
        case closed
    }

    private let configuration: Configuration
    private let log: KafkaLogSink?
    private let onClientError: (@Sendable (KafkaError) -> Void)?
    private let book = ReplyBook()
    private let timers = DeadlineTimers()
    private let state = Mutex(State.idle)

    /// - Parameters:
    ///   - log: receives librdkafka's log lines (nil: dropped).
    ///   - onClientError: receives every error librdkafka reports outside a call (brokers down,
    ///     fatal errors); runs on a librdkafka thread, so it must not block.
    public init(configuration: Configuration, log: KafkaLogSink? = nil,
                onClientError: (@Sendable (KafkaError) -> Void)? = nil) {
        self.configuration = configuration
        self.log = log
        self.onClientError = onClientError
    }

    deinit { close() }

    /// Makes the Kafka clients and starts reading replies, if not done yet; the first call does it
    /// otherwise. Call it at start-up to find a wrong Kafka setting before the first customer does.
    public func start() async throws(GatewayError) { _ = try await clients() }

    /// Stops reading replies and closes the clients; waits still pending end with `.closed`.
    public func close() {
        let started: GatewayClients? = state.withLock { state in
            defer { state = .closed }
            if case .started(let clients) = state { return clients }
            return nil
        }
        book.fail(with: .closed)
        started?.close()
    }

    /// Sends the event and awaits the reply to exactly its sequence.
    ///
    /// Returns `.superseded` as soon as a newer event of the same session is sent (through this
    /// gateway): only the answer to the latest address matters. Throws `.timedOut` at the event's
    /// `reply_by`, or after `defaultWait` when it has none. A `traceparent` travels as the record's header.
    public func quote(_ event: AddressChangeEvent, defaultWait: Duration = .seconds(25),
                      traceparent: String? = nil) async throws(GatewayError) -> Answer {
        try await send([event], traceparent: traceparent)
        let wait = event.replyBy.map { Duration.milliseconds(max(0, Int64($0.timeIntervalSinceNow * 1000))) } ?? defaultWait
        return try await reply(sessionID: event.sessionID, sequence: event.sequence, within: wait)
    }

    /// Produces events (keyed by session) and returns once the broker has them all, as a customer
    /// tapping addresses quickly would send them. From then on, a reply to an older sequence of
    /// the same session is ignored.
    public func send(_ events: [AddressChangeEvent], traceparent: String? = nil) async throws(GatewayError) {
        for event in events { book.sent(session: event.sessionID, sequence: event.sequence) }
        let headers = traceparent.map { [KafkaHeader(ContractHeader.traceparent, $0)] } ?? []
        try await produce(events.map { event in
            KafkaOutgoingMessage(topic: configuration.eventsTopic, key: Array(event.sessionID.utf8), value: event.encode(), headers: headers)
        })
    }

    /// Produces raw bytes as an event of `sessionID` (a malformed event in a demo, say).
    public func send(bytes: [UInt8], sessionID: String, sequence: Int64?, traceparent: String? = nil) async throws(GatewayError) {
        if let sequence { book.sent(session: sessionID, sequence: sequence) }
        var headers: [KafkaHeader] = []
        if let traceparent { headers.append(KafkaHeader(ContractHeader.traceparent, traceparent)) }
        try await produce([KafkaOutgoingMessage(topic: configuration.eventsTopic, key: Array(sessionID.utf8),
                                                value: bytes, headers: headers)])
    }

    /// Awaits the reply to `sequence` of `sessionID` (sent before); throws `.timedOut` after `wait`.
    public func reply(sessionID: String, sequence: Int64, within wait: Duration) async throws(GatewayError) -> Answer {
        _ = try await clients()  // a reply can only come once the reader runs
        let deadline = ContinuousClock.now + wait
        let book = self.book, timers = self.timers
        let waiterID = Mutex<UInt64?>(nil)
        let outcome: ReplyBook.Outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard let id = book.register(session: sessionID, sequence: sequence, resume: { continuation.resume(returning: $0) })
                else { return }
                waiterID.withLock { $0 = id }
                let timer = timers.start(until: deadline) {
                    book.end(session: sessionID, waiter: id, with: .failure(.timedOut(sessionID: sessionID, sequence: sequence)))
                }
                book.attach(timer, session: sessionID, waiter: id)
                // Cancelled before the id was known to the cancellation handler.
                if Task.isCancelled { book.end(session: sessionID, waiter: id, with: .failure(.cancelled)) }
            }
        } onCancel: {
            if let id = waiterID.withLock({ $0 }) { book.end(session: sessionID, waiter: id, with: .failure(.cancelled)) }
        }
        return try outcome.get()
    }

    /// The next sequence for `sessionID`: one above the highest this gateway has sent.
    ///
    /// Sequences must grow per session across every gateway instance that sends for it. One
    /// instance serving a session (sticky routing by session) can rely on this counter; several
    /// instances must persist the last sequence per session where they all see it (the checkout
    /// session store, say) and take the next one from there.
    public func nextSequence(for sessionID: String) -> Int64 { book.nextSequence(for: sessionID) }

    /// Replies that arrived for a sequence older than the newest one sent, and were ignored.
    public var ignoredStaleReplies: [QuoteReply] { book.ignored }

    /// Deadline timers still running: one per pending wait, none once every wait has ended.
    var outstandingTimers: Int { timers.outstanding }

    /// What the clients report outside any call: handed to the caller; a fatal error ends every wait.
    func clientReported(_ error: KafkaError) {
        onClientError?(error)
        if error.isFatal { book.fail(with: .clientFailed(error)) }
    }

    /// The started clients. The first call makes them on a thread of its own: making them waits on
    /// the cluster (metadata, watermarks), which must not hold one of the few threads async code runs on.
    private func clients() async throws(GatewayError) -> GatewayClients {
        if let running = try runningClients() { return running }
        let made: Result<GatewayClients, GatewayError> = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Result { () throws(GatewayError) in try self.startClients() }) }.start()
        }
        return try made.get()
    }

    /// The clients when started; nil when not yet, or while another call is making them (the
    /// lock is never waited for here, so no async thread waits on the cluster).
    private func runningClients() throws(GatewayError) -> GatewayClients? {
        if let failed = book.failed { throw failed }
        switch state.withLockIfAvailable({ $0 }) {
        case .started(let clients): return clients
        case .closed: throw .closed
        case .idle, nil: return nil
        }
    }

    /// Makes and starts the clients unless another call did; blocks while they reach the cluster.
    private func startClients() throws(GatewayError) -> GatewayClients {
        try state.withLock { (state) throws(GatewayError) -> GatewayClients in
            switch state {
            case .started(let clients): return clients
            case .closed: throw .closed
            case .idle:
                let clients: GatewayClients
                do throws(KafkaError) {
                    clients = try GatewayClients(configuration, log: log) { [weak self] error in self?.clientReported(error) }
                } catch {
                    throw .kafka(error)
                }
                clients.startReading(into: book)
                state = .started(clients)
                return clients
            }
        }
    }

    /// Queues the records and returns once each has its delivery report.
    private func produce(_ messages: [KafkaOutgoingMessage]) async throws(GatewayError) {
        let producer = try await clients().producer
        let failure: KafkaError? = await withCheckedContinuation { continuation in
            let countdown = DeliveryCountdown(records: messages.count) { continuation.resume(returning: $0) }
            for (index, message) in messages.enumerated() {
                do throws(KafkaError) {
                    try producer.send(message) { countdown.report($0) }
                } catch {
                    countdown.abandon(messages.count - index, error: error)
                    break
                }
            }
        }
        if let failure { throw failure.isFatal ? .clientFailed(failure) : .kafka(failure) }
    }
}
