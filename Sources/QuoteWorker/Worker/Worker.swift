import Foundation
import Kafka
import QuoteContract
import ShippingRules
import Synchronization

/// One ShipQuote worker: a member of the consumer group that turns address-change events into
/// quote replies. `run` blocks its thread (librdkafka's calls block); `stop` may be called from any thread.
///
/// The path of one event: poll → decode (bad bytes → dead letter) → sequence gate → quote →
/// gate asked again → produce → offset committed once the reply is delivered.
public final class Worker: @unchecked Sendable {
    public let configuration: WorkerConfiguration
    public let metrics: WorkerMetrics
    private let engine: any QuoteEngine
    private let clock: any Clock
    private let logger: Logger

    private let control = WorkerControl()
    private let offsets = OffsetTracker()
    private let redeliveries = RedeliveryQueue()
    // Touched only by the thread in `run` (rebalances run inside its polls).
    private var gate = SequenceGate()
    private var consumer: KafkaConsumer!
    private let producer: KafkaProducer
    private var owned: Set<TopicPartition> = []

    public init(configuration: WorkerConfiguration, engine: any QuoteEngine, clock: any Clock = SystemClock(),
                logger: Logger = Logger(), metrics: WorkerMetrics = WorkerMetrics()) throws(KafkaError) {
        self.configuration = configuration
        self.engine = engine
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        let logSink = Self.kafkaLogSink(logger)
        let control = self.control
        let onError: @Sendable (KafkaError) -> Void = { error in
            if error.isFatal { control.fail(error) }
            logger.log(error.isFatal ? .error : .warning, "kafka client error",
                       ["code": .text(error.name), "detail": .text(error.message)])
        }
        producer = try KafkaProducer(configuration: configuration.producerKafka, log: logSink, onError: onError)
        consumer = try KafkaConsumer(configuration: configuration.consumerKafka, log: logSink, onError: onError) { [unowned self] event in
            self.rebalanced(event)
        }
    }

    /// Asks the loop to finish: stop fetching, deliver what is in flight, commit, leave the group.
    public func stop() { control.requestStop() }

    public var isStopping: Bool { control.stopRequested }

    /// Partitions this worker owns now (updated on every rebalance).
    public var assignedPartitions: [TopicPartition] { control.assignment }

    /// Runs until `stop`. Throws when the worker cannot go on (a fatal producer error).
    public func run() throws(KafkaError) {
        try consumer.subscribe([configuration.topics.addressChanged])
        logger.info("worker started", ["input": .text(configuration.topics.addressChanged), "rules_version": .text(engine.version)])
        var lastCommit = ContinuousClock.now
        while !control.stopRequested {
            if control.fatalError != nil { break }
            resendFailedReplies()
            let batch = consumer.poll(maxMessages: configuration.maxBatch, timeoutMs: configuration.pollTimeoutMs)
            if !batch.isEmpty { handle(batch) }
            if ContinuousClock.now - lastCommit >= configuration.commitInterval {
                commitFinished()
                lastCommit = .now
            }
        }
        shutDown()
        if let fatal = control.fatalError {
            logger.error("worker stopped on a fatal Kafka error", ["code": .text(fatal.name), "detail": .text(fatal.message)])
            throw fatal
        }
        logger.info("worker stopped")
    }

    // MARK: - One batch

    private func handle(_ batch: [KafkaMessage]) {
        metrics.eventReceived(count: batch.count)
        let now = clock.now()
        let decoded = batch.map { AddressChangeEvent.decode($0.value, key: $0.key) }
        // Conflation: within what was fetched, only each session's newest event is quoted.
        var newest: [String: Int64] = [:]
        for case .success(let event) in decoded {
            newest[event.sessionID] = max(newest[event.sessionID] ?? 0, event.sequence)
        }
        for (message, result) in zip(batch, decoded) {
            switch result {
            case .success(let event): answer(event, message: message, newestInBatch: newest[event.sessionID]!, now: now)
            case .failure(let rejection): deadLetter(message, rejection: rejection)
            }
        }
        metrics.setTrackedSessions(gate.trackedSessions)
    }

    private func answer(_ event: AddressChangeEvent, message: KafkaMessage, newestInBatch: Int64, now: Date) {
        let tp = message.topicPartition
        if case .drop(let reason) = gate.verdict(session: event.sessionID, sequence: event.sequence, in: tp) {
            return drop(event, message: message, reason: reason)
        }
        if event.sequence < newestInBatch { return drop(event, message: message, reason: .superseded) }
        gate.take(session: event.sessionID, sequence: event.sequence, in: tp)
        if isExpired(event, now: now) { return drop(event, message: message, reason: .expired) }

        let result = engine.quote(event.quoteRequest(now: now))
        // Rule 2 of the sequence check: a newer event may have been taken while this one was quoted.
        guard gate.isLatest(session: event.sessionID, sequence: event.sequence, in: tp) else {
            return drop(event, message: message, reason: .superseded)
        }
        let outcome = ReplyOutcome(result)
        let reply = QuoteReply(sessionID: event.sessionID, sequence: event.sequence, eventID: event.eventID,
                               outcome: outcome, rulesVersion: engine.version, computedAt: clock.now())
        metrics.finished(outcome.name)
        offsets.register(tp, offset: message.offset, deliveries: 1)
        publish(PendingReply(record: ReplyRecord.reply(reply, topic: configuration.topics.quoteReplies,
                                                       traceparent: message.header(ContractHeader.traceparent)),
                             source: tp, offset: message.offset))
        logger.debug("replied", ["session_id": .text(event.sessionID), "sequence": .number(event.sequence),
                                 "event_id": .text(event.eventID ?? ""), "outcome": .text(outcome.name)])
    }

    private func isExpired(_ event: AddressChangeEvent, now: Date) -> Bool {
        if let replyBy = event.replyBy { return replyBy <= now }
        if let ttl = configuration.defaultTimeToLive { return event.occurredAt.addingTimeInterval(ttl) <= now }
        return false
    }

    private func drop(_ event: AddressChangeEvent, message: KafkaMessage, reason: DropReason) {
        metrics.dropped(reason)
        offsets.register(message.topicPartition, offset: message.offset, deliveries: 0)
        logger.debug("dropped", ["session_id": .text(event.sessionID), "sequence": .number(event.sequence),
                                 "event_id": .text(event.eventID ?? ""), "reason": .text(reason.rawValue)])
    }

    /// A record that cannot be read goes to the dead-letter topic unchanged; when its session and
    /// sequence can still be read, a `rejected` reply tells the gateway not to wait.
    private func deadLetter(_ message: KafkaMessage, rejection: EventRejection) {
        let tp = message.topicPartition
        metrics.deadLettered()
        metrics.finished(ReplyOutcome.rejectedName)
        var records = [ReplyRecord.deadLetter(message, rejection: rejection, topic: configuration.topics.deadLetters)]
        if let session = rejection.sessionID, let sequence = rejection.sequence,
           isAnswerable(rejection, session: session, sequence: sequence, in: tp) {
            let reply = QuoteReply(sessionID: session, sequence: sequence, eventID: nil,
                                   outcome: .rejected(reason: rejection.description),
                                   rulesVersion: engine.version, computedAt: clock.now())
            records.append(ReplyRecord.reply(reply, topic: configuration.topics.quoteReplies,
                                             traceparent: message.header(ContractHeader.traceparent)))
        }
        offsets.register(tp, offset: message.offset, deliveries: records.count)
        for record in records { publish(PendingReply(record: record, source: tp, offset: message.offset)) }
        logger.warning("event rejected", ["session_id": .text(rejection.sessionID ?? ""),
                                          "source_partition": .int(message.partition), "source_offset": .number(message.offset),
                                          "error_code": .text(rejection.code.rawValue), "field": .text(rejection.field ?? "")])
    }

    /// A rejected event still goes through the sequence gate, so an old one never answers over a
    /// newer address. An event whose key differs from its session id sits in another session's
    /// partition: it is answered, but it must not move that partition's state.
    private func isAnswerable(_ rejection: EventRejection, session: String, sequence: Int64, in tp: TopicPartition) -> Bool {
        if rejection.code == .keyMismatch { return true }
        guard gate.verdict(session: session, sequence: sequence, in: tp) == .take else { return false }
        gate.take(session: session, sequence: sequence, in: tp)
        return true
    }

    // MARK: - Producing

    private func publish(_ pending: PendingReply) {
        do {
            try producer.send(pending.record) { [offsets, redeliveries, logger, metrics] report in
                switch report {
                case .delivered:
                    offsets.finishDelivery(pending.source, offset: pending.offset)
                case .failed(let error) where error.isPermanentForRecord:
                    Worker.abandon(pending, error, offsets: offsets, metrics: metrics, logger: logger)
                case .failed(let error):
                    // librdkafka gave up after its own retries; try again rather than lose the reply.
                    logger.warning("delivery failed; will retry", ["topic": .text(pending.record.topic), "code": .text(error.name)])
                    redeliveries.add(pending)
                }
            }
        } catch where error.isPermanentForRecord {
            Worker.abandon(pending, error, offsets: offsets, metrics: metrics, logger: logger)
        } catch {
            logger.warning("produce refused; will retry", ["topic": .text(pending.record.topic), "code": .text(error.name)])
            redeliveries.add(pending)
        }
    }

    /// A record no broker will take (larger than its limit, say) would block its partition forever
    /// if retried: it is logged, counted and let go, so the worker keeps consuming.
    private static func abandon(_ pending: PendingReply, _ error: KafkaError, offsets: OffsetTracker,
                                metrics: WorkerMetrics, logger: Logger) {
        metrics.abandonedRecord()
        logger.error("record refused for good; not retried", [
            "topic": .text(pending.record.topic), "code": .text(error.name), "bytes": .int(pending.record.value.count),
            "source_partition": .int(pending.source.partition), "source_offset": .number(pending.offset)])
        offsets.finishDelivery(pending.source, offset: pending.offset)
    }

    private func resendFailedReplies() {
        let again = redeliveries.takeAll()
        for pending in again where owned.contains(pending.source) {
            metrics.retriedDelivery()
            publish(pending)
        }
    }

    // MARK: - Offsets and rebalances

    private func commitFinished(_ partitions: Set<TopicPartition>? = nil) {
        let finished = offsets.committable(partitions ?? owned)
        guard !finished.isEmpty else { return }
        do {
            try consumer.commit(finished)
            offsets.markCommitted(finished)
        } catch {
            logger.warning("commit failed; will retry", ["code": .text(error.name), "detail": .text(error.message)])
        }
    }

    /// Waits, up to `limit`, until every fetched record has been delivered or dropped.
    private func drainInFlight(within limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while offsets.unfinished > 0 && ContinuousClock.now < deadline && control.fatalError == nil {
            resendFailedReplies()
            producer.flush(timeoutMs: 50)
        }
    }

    private func rebalanced(_ event: RebalanceEvent) {
        switch event {
        case .assigned(let partitions):
            owned.formUnion(partitions)
            logger.info("partitions assigned", ["partitions": .text(partitions.map(\.description).joined(separator: ","))])
        case .revoked(let partitions):
            // Finish what this worker started on them, so the next owner starts after it.
            drainInFlight(within: configuration.shutdownGrace)
            commitFinished(Set(partitions))
            offsets.forget(partitions)
            gate.forget(partitions)
            owned.subtract(partitions)
            logger.info("partitions revoked", ["partitions": .text(partitions.map(\.description).joined(separator: ","))])
        }
        control.setAssignment(owned.sorted())
    }

    private func shutDown() {
        drainInFlight(within: configuration.shutdownGrace)
        commitFinished()
        consumer.close()
        producer.close(timeoutMs: 1_000)
        let unfinished = offsets.unfinished
        if unfinished > 0 {
            logger.warning("records left unfinished at shutdown; they will be replayed", ["count": .int(unfinished)])
        }
    }

    static func kafkaLogSink(_ logger: Logger) -> KafkaLogSink {
        { record in
            let level: Logger.Level = record.level <= 3 ? .error : record.level == 4 ? .warning : record.level <= 6 ? .info : .debug
            logger.log(level, "librdkafka", ["facility": .text(record.facility), "detail": .text(record.message),
                                              "client": .text(record.client)])
        }
    }
}

/// A record on its way out, with the input record it finishes.
struct PendingReply: Sendable {
    let record: OutgoingMessage
    let source: TopicPartition
    let offset: Int64
}

/// Records whose delivery failed, waiting for the worker loop to produce them again (the delivery
/// report thread must not block on a full producer queue itself).
final class RedeliveryQueue: Sendable {
    private let queue = Mutex<[PendingReply]>([])
    func add(_ pending: PendingReply) { queue.withLock { $0.append(pending) } }
    func takeAll() -> [PendingReply] { queue.withLock { q in defer { q.removeAll() }; return q } }
}

/// The flags other threads use to steer a running worker.
final class WorkerControl: Sendable {
    private let state = Mutex<(stop: Bool, fatal: KafkaError?, assignment: [TopicPartition])>((false, nil, []))

    var stopRequested: Bool { state.withLock { $0.stop } }
    var fatalError: KafkaError? { state.withLock { $0.fatal } }
    var assignment: [TopicPartition] { state.withLock { $0.assignment } }

    func requestStop() { state.withLock { $0.stop = true } }
    func fail(_ error: KafkaError) { state.withLock { if $0.fatal == nil { $0.fatal = error } } }
    func setAssignment(_ partitions: [TopicPartition]) { state.withLock { $0.assignment = partitions } }
}
