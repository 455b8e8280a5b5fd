import Foundation
import Kafka
import QuoteContract
import ShippingRules
import Synchronization

/// One ShipQuote worker: a member of the consumer group that turns address-change events into
/// quote replies. `run` blocks its thread (librdkafka's calls block); `stop` may be called from any thread.
///
/// The path of one event: poll → decode (bad bytes → dead letter) → sequence gate → quote →
/// gate asked again → state record → reply → offset committed once both are delivered.
///
/// Why the state record goes first: once a reply for sequence N is out, any worker that takes the
/// partition over must already know N, or it could publish an older answer after it. And why the
/// offset waits for the reply: a crash before the reply replays the record, and the gate, seeing
/// the very record that set its state, answers it again (the reply is deterministic).
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
    private let restorer: StateRestorer
    private var owned: Set<KafkaTopicPartition> = []
    // Backpressure: the partitions paused while the producer catches up.
    private var throttle: FetchThrottle
    private var paused: Set<KafkaTopicPartition> = []
    private var watchdog: LoopWatchdog!

    public init(configuration: WorkerConfiguration, engine: any QuoteEngine, clock: any Clock = SystemClock(),
                logger: Logger = Logger(), metrics: WorkerMetrics = WorkerMetrics()) throws(KafkaError) {
        self.configuration = configuration
        self.engine = engine
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        throttle = FetchThrottle(pauseAt: configuration.effectivePauseFetchingAt)
        let logSink = Self.kafkaLogSink(logger)
        let control = self.control
        let onError: @Sendable (KafkaError) -> Void = { error in
            if error.isFatal { control.fail(WorkerFailure.kafkaClientFailed(error)) }
            logger.kafkaClientError(error)
        }
        producer = try KafkaProducer(configuration: configuration.producerKafka, log: logSink, onError: onError,
                                     onStatistics: { metrics.ingestStatistics($0) })
        restorer = try StateRestorer(kafka: configuration.consumerKafka, topic: configuration.topics.quoteState, log: logSink)
        consumer = try KafkaConsumer(configuration: configuration.consumerKafka, log: logSink, onError: onError,
                                     onStatistics: { metrics.ingestStatistics($0) }) { [unowned self] event in
            self.rebalanced(event)
        }
        watchdog = LoopWatchdog(limit: configuration.effectiveStallLimit) { [unowned self] elapsed in
            self.stalled(elapsed)
        }
    }

    /// Asks the loop to finish: stop fetching, deliver what is in flight, commit, leave the group.
    public func stop() { control.requestStop() }

    public var isStopping: Bool { control.stopRequested }

    /// Partitions this worker owns now (updated on every rebalance).
    public var assignedPartitions: [KafkaTopicPartition] { control.assignment }

    /// Runs until `stop`. Throws when the worker cannot go on: topics that do not fit together,
    /// a fatal producer error, a partition whose state cannot be restored.
    public func run() throws {
        try checkTopics()
        try consumer.subscribe([configuration.topics.addressChanged])
        logger.info("worker started", ["input": .text(configuration.topics.addressChanged), "rules_version": .text(engine.version)])
        watchdog.start()
        defer { watchdog.stop() }
        var lastCommit = ContinuousClock.now
        var lastSweep = ContinuousClock.now
        while !control.stopRequested && control.fatalError == nil {
            metrics.health.loopTurned()
            resendFailedRecords()
            let batch = consumer.poll(maxMessages: configuration.maxBatch, timeoutMs: configuration.pollTimeoutMs)
            if !batch.isEmpty {
                watchdog.batchBegan()
                handle(batch)
                watchdog.batchEnded()
            }
            applyBackpressure()
            if ContinuousClock.now - lastCommit >= configuration.commitInterval {
                commitFinished()
                lastCommit = .now
            }
            if ContinuousClock.now - lastSweep >= configuration.sessionSweepInterval {
                evictIdleSessions()
                lastSweep = .now
            }
        }
        shutDown()
        if let fatal = control.fatalError {
            logger.error("worker stopped on an error it cannot get past", ["detail": .text("\(fatal)")])
            throw fatal
        }
        logger.info("worker stopped")
    }

    /// The state topic must have a partition for every input partition (same key, same number):
    /// a partition's state is written to, and restored from, the state partition of the same number.
    private func checkTopics() throws {
        let input = try consumer.partitionCount(configuration.topics.addressChanged)
        let state = try restorer.partitionCount()
        guard state == input else {
            throw WorkerSetupError(description: "topic \(configuration.topics.quoteState) has \(state) partitions and "
                + "\(configuration.topics.addressChanged) has \(input): the state topic must be co-partitioned with the "
                + "input (the same partition count); create it with \(input) partitions and cleanup.policy=compact")
        }
    }

    // MARK: - One batch

    private func handle(_ batch: [KafkaMessage]) {
        metrics.eventReceived(count: batch.count)
        let now = clock.now()
        let decoded = batch.map(ReadEvent.read)
        // Conflation: within what was fetched, only each session's newest event is quoted.
        var newest: [String: Int64] = [:]
        for case .success(let event) in decoded {
            newest[event.sessionID] = max(newest[event.sessionID] ?? 0, event.sequence)
        }
        for (message, result) in zip(batch, decoded) {
            // Once the worker is going down (a fatal client error, a stall that took it out of the
            // group) the rest of the batch is left to be replayed by whoever owns it next.
            if control.fatalError != nil { break }
            switch result {
            case .success(let event): answer(event, message: message, newestInBatch: newest[event.sessionID]!, now: now)
            case .failure(let rejection): deadLetter(message, rejection: rejection, now: now)
            }
        }
        metrics.setTrackedSessions(gate.trackedSessions)
    }

    private func answer(_ event: ReadEvent, message: KafkaMessage, newestInBatch: Int64, now: Date) {
        let tp = message.topicPartition
        if case .drop(let reason) = gate.verdict(session: event.sessionID, sequence: event.sequence, offset: message.offset, in: tp) {
            return drop(event, message: message, reason: reason)
        }
        if event.sequence < newestInBatch { return drop(event, message: message, reason: .superseded) }
        let entry = gate.take(session: event.sessionID, sequence: event.sequence, offset: message.offset,
                              nowMs: RFC3339.epochMilliseconds(now), in: tp)
        let state = stateRecord(event.sessionID, entry, tp)
        if isExpired(event, now: now) {
            // Taken all the same: an older event arriving later must still count as stale.
            offsets.register(tp, offset: message.offset, deliveries: 1)
            publish(PendingRecord(record: state, source: tp, offset: message.offset))
            return drop(event, message: message, reason: .expired, registered: true)
        }

        // Quoted at the moment the customer acted, not when the worker got to it: a replay after a
        // crash then gives the very same update.
        let quoteStarted = ContinuousClock.now
        let result = engine.quote(event.event().quoteRequest(now: event.occurredAt))
        metrics.observeQuoteDuration(ContinuousClock.now - quoteStarted)
        // Rule 2 of the sequence check: a newer event may have been taken while this one was quoted.
        guard gate.isLatest(session: event.sessionID, sequence: event.sequence, in: tp) else {
            return drop(event, message: message, reason: .superseded)
        }
        // A quote that outlasted the watchdog: the partition may have a new owner by now, and this
        // worker's state record could land after that owner's newer one. It is left for the replay.
        if watchdog.hasTripped { return }
        let outcome = ReplyOutcome(result)
        let reply = QuoteReply(sessionID: event.sessionID, sequence: event.sequence, eventID: event.eventID,
                               outcome: outcome, rulesVersion: engine.version, computedAt: clock.now())
        metrics.finished(outcome.name)
        offsets.register(tp, offset: message.offset, deliveries: 1)
        let replyRecord = ReplyRecord.reply(reply, topic: configuration.topics.quoteReplies,
                                            traceparent: message.header(ContractHeader.traceparent))
        publish(PendingRecord(record: state, source: tp, offset: message.offset, then: replyRecord, answersEventOf: event.occurredAt))
        logger.debug("replied", ["session_id": .text(event.sessionID), "sequence": .number(event.sequence),
                                 "event_id": .text(event.eventID ?? ""), "outcome": .text(outcome.name)])
    }

    private func isExpired(_ event: ReadEvent, now: Date) -> Bool {
        if let replyBy = event.replyBy { return replyBy <= now }
        if let ttl = configuration.defaultTimeToLive { return event.occurredAt.addingTimeInterval(ttl) <= now }
        return false
    }

    private func drop(_ event: ReadEvent, message: KafkaMessage, reason: DropReason, registered: Bool = false) {
        metrics.dropped(reason)
        if !registered { offsets.register(message.topicPartition, offset: message.offset, deliveries: 0) }
        logger.debug("dropped", ["session_id": .text(event.sessionID), "sequence": .number(event.sequence),
                                 "event_id": .text(event.eventID ?? ""), "reason": .text(reason.rawValue)])
    }

    private func stateRecord(_ session: String, _ entry: SequenceGate.Entry, _ tp: KafkaTopicPartition) -> KafkaOutgoingMessage {
        KafkaOutgoingMessage(topic: configuration.topics.quoteState, key: Array(session.utf8),
                        value: StateRecord.encode(entry), partition: tp.partition)
    }

    /// A record that cannot be read goes to the dead-letter topic unchanged; when its session and
    /// sequence can still be read, a `rejected` reply tells the gateway not to wait.
    private func deadLetter(_ message: KafkaMessage, rejection: EventRejection, now: Date) {
        let tp = message.topicPartition
        metrics.deadLettered()
        metrics.finished(ReplyOutcome.rejectedName)
        var chains = [PendingRecord(record: ReplyRecord.deadLetter(message, rejection: rejection, topic: configuration.topics.deadLetters),
                                    source: tp, offset: message.offset)]
        if let session = rejection.sessionID, let sequence = rejection.sequence {
            let reply = ReplyRecord.reply(
                QuoteReply(sessionID: session, sequence: sequence, eventID: nil, outcome: .rejected(reason: rejection.description),
                           rulesVersion: engine.version, computedAt: clock.now()),
                topic: configuration.topics.quoteReplies, traceparent: message.header(ContractHeader.traceparent))
            if rejection.code == .keyMismatch {
                // It sits in another session's partition: answered, but that partition's state is not its own.
                chains.append(PendingRecord(record: reply, source: tp, offset: message.offset))
            } else if gate.verdict(session: session, sequence: sequence, offset: message.offset, in: tp) == .take {
                // Through the gate like any event, so an old one never answers over a newer address.
                let entry = gate.take(session: session, sequence: sequence, offset: message.offset,
                                      nowMs: RFC3339.epochMilliseconds(now), in: tp)
                chains.append(PendingRecord(record: stateRecord(session, entry, tp), source: tp, offset: message.offset, then: reply))
            }
        }
        offsets.register(tp, offset: message.offset, deliveries: chains.count)
        for chain in chains { publish(chain) }
        logger.warning("event rejected", ["session_id": .text(rejection.sessionID ?? ""),
                                          "source_partition": .int(message.partition), "source_offset": .number(message.offset),
                                          "error_code": .text(rejection.code.rawValue), "field": .text(rejection.field ?? "")])
    }

    // MARK: - Producing

    /// Produces a record, and once it is delivered the record chained behind it. The last delivery
    /// of a chain finishes the input record's offset. From the delivery-report thread nothing may
    /// wait for room in the queue that thread drains: a full queue hands the record to the loop.
    ///
    /// The loop does not wait for room either: waiting on a queue that a down broker never drains
    /// would leave it deaf to stop requests and rebalances. Records that find no room wait, in
    /// order, behind those already waiting, and fetching pauses until the queue drains.
    private func publish(_ pending: PendingRecord, fromReportThread: Bool = false) {
        let completion: @Sendable (KafkaDeliveryReport) -> Void = { [weak self] report in
            self?.delivered(pending, report)
        }
        do {
            if fromReportThread {
                if try !producer.sendIfRoom(pending.record, completion: completion) { redeliveries.add(pending) }
            } else if redeliveries.hasAwaitingRoom {
                redeliveries.awaitRoom(pending)
            } else if try !producer.sendIfRoom(pending.record, completion: completion) {
                redeliveries.awaitRoom(pending)
            }
        } catch where error.isPermanentForRecord {
            abandon(pending, error)
        } catch {
            logger.warning("produce refused; will retry", ["topic": .text(pending.record.topic), "code": .text(error.name)])
            redeliveries.add(pending)
        }
    }

    private func delivered(_ pending: PendingRecord, _ report: KafkaDeliveryReport) {
        switch report {
        case .delivered:
            if let next = pending.then {
                publish(PendingRecord(record: next, source: pending.source, offset: pending.offset,
                                      answersEventOf: pending.answersEventOf), fromReportThread: true)
            } else {
                // End to end: from the customer's action to the reply being on the broker.
                if let occurredAt = pending.answersEventOf {
                    metrics.observeEndToEnd(seconds: clock.now().timeIntervalSince(occurredAt))
                }
                offsets.finishDelivery(pending.source, offset: pending.offset)
            }
        case .failed(let error) where error.isPermanentForRecord:
            abandon(pending, error)
        case .failed(let error):
            // librdkafka gave up after its own retries; try again rather than lose the reply.
            logger.warning("delivery failed; will retry", ["topic": .text(pending.record.topic), "code": .text(error.name)])
            redeliveries.add(pending)
        }
    }

    /// A record no broker will take (larger than its limit, say) would block its partition forever
    /// if retried: it is logged, counted and let go, so the worker keeps consuming.
    private func abandon(_ pending: PendingRecord, _ error: KafkaError) {
        metrics.abandonedRecord()
        logger.error("record refused for good; not retried", [
            "topic": .text(pending.record.topic), "code": .text(error.name), "bytes": .int(pending.record.value.count),
            "source_partition": .int(pending.source.partition), "source_offset": .number(pending.offset)])
        offsets.finishDelivery(pending.source, offset: pending.offset)
    }

    private func resendFailedRecords() {
        // First those that found no room, in their order, for as long as there is room now.
        while let pending = redeliveries.nextAwaitingRoom() {
            guard owned.contains(pending.source) else { redeliveries.dropAwaitingRoom(); continue }
            let completion: @Sendable (KafkaDeliveryReport) -> Void = { [weak self] report in self?.delivered(pending, report) }
            do {
                guard try producer.sendIfRoom(pending.record, completion: completion) else { break }
                redeliveries.dropAwaitingRoom()
            } catch where error.isPermanentForRecord {
                redeliveries.dropAwaitingRoom()
                abandon(pending, error)
            } catch {
                break  // a fatal producer error: the loop is about to stop
            }
        }
        let again = redeliveries.takeAll()
        for pending in again where owned.contains(pending.source) {
            metrics.retriedDelivery()
            publish(pending)
        }
    }

    // MARK: - Backpressure and stalls

    /// Pauses every owned partition while too many records wait to be produced; resumes them once
    /// the producer has caught up. Partitions assigned while paused are paused on the next turn.
    private func applyBackpressure() {
        let waiting = producer.queueLength + redeliveries.count
        switch throttle.change(waiting: waiting) {
        case .pause?:
            logger.warning("producer queue full; fetching paused", ["waiting_records": .int(waiting), "pause_at": .int(throttle.pauseAt)])
        case .resume?:
            consumer.resume(paused.intersection(owned).sorted())
            paused.removeAll()
            logger.info("producer queue drained; fetching resumed", ["waiting_records": .int(waiting)])
        case nil:
            break
        }
        if throttle.isPaused {
            let unpaused = owned.subtracting(paused)
            if !unpaused.isEmpty {
                consumer.pause(unpaused.sorted())
                paused.formUnion(unpaused)
            }
        }
    }

    /// Runs on the watchdog's thread while the loop's thread is stuck in a batch: takes the worker
    /// out of its group so that other members take its partitions, and marks the worker failed so
    /// the loop stops (without publishing more) as soon as the batch lets go.
    private func stalled(_ elapsed: Duration) {
        let limit = watchdog.limit
        logger.error("batch stalled longer than max.poll.interval.ms; leaving the consumer group", [
            "elapsed_ms": .number(WorkerFailure.milliseconds(elapsed)), "limit_ms": .number(WorkerFailure.milliseconds(limit))])
        control.fail(WorkerFailure.stalled(elapsed: elapsed, limit: limit))
        consumer.unsubscribe()
    }

    // MARK: - Session expiry

    /// Forgets sessions idle longer than `sessionIdleTimeout` and deletes their state, so memory and
    /// the state topic stay bounded by the sessions that are alive.
    private func evictIdleSessions() {
        let cutoff = RFC3339.epochMilliseconds(clock.now()) - Int64(configuration.sessionIdleTimeout * 1000)
        let evicted = gate.evictIdle(before: cutoff)
        guard !evicted.isEmpty else { return }
        for (tp, session) in evicted {
            let tombstone = KafkaOutgoingMessage.tombstone(topic: configuration.topics.quoteState, key: Array(session.utf8),
                                                      partition: tp.partition)
            // A lost tombstone only means the next owner loads an idle entry and evicts it again.
            _ = try? producer.sendIfRoom(tombstone) { _ in }
        }
        metrics.setTrackedSessions(gate.trackedSessions)
        logger.info("idle sessions evicted", ["count": .int(evicted.count)])
    }

    // MARK: - Offsets and rebalances

    private func commitFinished(_ partitions: Set<KafkaTopicPartition>? = nil) {
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
            resendFailedRecords()
            producer.flush(timeoutMs: 50)
        }
    }

    private func rebalanced(_ event: KafkaRebalanceEvent) {
        switch event {
        case .assigned(let partitions):
            restoreState(of: partitions)
            owned.formUnion(partitions)
            paused.subtract(partitions)  // a new assignment fetches; the next turn pauses it if needed
            logger.info("partitions assigned", ["partitions": .text(partitions.map(\.description).joined(separator: ","))])
        case .revoked(let partitions):
            // Finish what this worker started on them, so the next owner starts after it.
            drainInFlight(within: configuration.shutdownGrace)
            commitFinished(Set(partitions))
            offsets.forget(partitions)
            gate.forget(partitions)
            owned.subtract(partitions)
            paused.subtract(partitions)
            logger.info("partitions revoked", ["partitions": .text(partitions.map(\.description).joined(separator: ","))])
        }
        metrics.setTrackedSessions(gate.trackedSessions)
        metrics.health.setAssigned(count: owned.count)
        control.setAssignment(owned.sorted())
    }

    /// Runs inside the assignment, before librdkafka hands out the partitions' first records.
    private func restoreState(of partitions: [KafkaTopicPartition]) {
        guard !partitions.isEmpty else { return }
        let started = ContinuousClock.now
        do {
            let restored = try restorer.restore(partitions.map(\.partition), timeout: configuration.restoreTimeout)
            var count = 0
            for tp in partitions {
                let entries = restored[tp.partition] ?? [:]
                gate.restore(tp, entries)
                count += entries.count
            }
            let ms = (ContinuousClock.now - started).components
            logger.info("sequence state restored", ["sessions": .int(count),
                                                    "milliseconds": .number(ms.seconds * 1000 + ms.attoseconds / 1_000_000_000_000_000)])
        } catch {
            // Answering without the state could publish an old answer over a newer one: stop instead.
            control.fail(error)
            logger.error("sequence state could not be restored", ["detail": .text("\(error)")])
        }
    }

    private func shutDown() {
        metrics.health.setStopping()
        drainInFlight(within: configuration.shutdownGrace)
        commitFinished()
        consumer.close()
        restorer.close()
        producer.close(timeoutMs: 1_000)
        let unfinished = offsets.unfinished
        if unfinished > 0 {
            logger.warning("records left unfinished at shutdown; they will be replayed", ["count": .int(unfinished)])
        }
    }

    static func kafkaLogSink(_ logger: Logger) -> KafkaLogSink { logger.kafkaLogSink }
}

/// A record on its way out, the record to produce once it is delivered, and the input record
/// whose offset the last delivery finishes.
struct PendingRecord: Sendable {
    let record: KafkaOutgoingMessage
    let source: KafkaTopicPartition
    let offset: Int64
    var then: KafkaOutgoingMessage? = nil
    /// Set on a reply's chain: when the event it answers happened, for the end-to-end histogram.
    var answersEventOf: Date? = nil
}

/// A setting or topic layout the worker cannot work with; the text says what to change.
public struct WorkerSetupError: Error, CustomStringConvertible {
    public let description: String
}

/// Records whose delivery failed, waiting for the worker loop to produce them again (the delivery
/// report thread must not block on a full producer queue itself), and records the loop could not
/// queue for lack of room, kept in their order.
final class RedeliveryQueue: Sendable {
    private let queue = Mutex<[PendingRecord]>([])
    private let awaiting = Mutex<[PendingRecord]>([])
    func add(_ pending: PendingRecord) { queue.withLock { $0.append(pending) } }
    func takeAll() -> [PendingRecord] { queue.withLock { q in defer { q.removeAll() }; return q } }

    // The awaiting-room list is touched by the loop's thread only; the lock is for `count`.
    func awaitRoom(_ pending: PendingRecord) { awaiting.withLock { $0.append(pending) } }
    var hasAwaitingRoom: Bool { awaiting.withLock { !$0.isEmpty } }
    func nextAwaitingRoom() -> PendingRecord? { awaiting.withLock { $0.first } }
    func dropAwaitingRoom() { awaiting.withLock { _ = $0.removeFirst() } }

    /// Records held here, of both kinds.
    var count: Int { queue.withLock { $0.count } + awaiting.withLock { $0.count } }
}

/// The flags other threads use to steer a running worker.
final class WorkerControl: Sendable {
    private let state = Mutex<(stop: Bool, fatal: (any Error)?, assignment: [KafkaTopicPartition])>((false, nil, []))

    var stopRequested: Bool { state.withLock { $0.stop } }
    var fatalError: (any Error)? { state.withLock { $0.fatal } }
    var assignment: [KafkaTopicPartition] { state.withLock { $0.assignment } }

    func requestStop() { state.withLock { $0.stop = true } }
    func fail(_ error: any Error) { state.withLock { if $0.fatal == nil { $0.fatal = error } } }
    func setAssignment(_ partitions: [KafkaTopicPartition]) { state.withLock { $0.assignment = partitions } }
}
