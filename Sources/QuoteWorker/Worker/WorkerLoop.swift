import Foundation
import Kafka
import QuoteContract
import Synchronization

/// The worker's one thread: poll, hand the batch to the processor, its records to the pipeline,
/// restore new partitions a step at a time, pause or resume fetching, commit. Every part it turns
/// is confined to this thread; the consumer's rebalance callbacks run on it too, inside `poll`.
final class WorkerLoop {
    private let configuration: WorkerConfiguration
    private let logger: Logger
    private let metrics: WorkerMetrics
    private let control: WorkerControl
    private let consumer: KafkaConsumer
    /// Replies and dead letters.
    private let producer: KafkaProducer
    /// State records and tombstones, batched (`WorkerConfiguration.stateLinger`).
    private let stateProducer: KafkaProducer
    private let takeovers: TakeoverReader
    /// Set on assignment: the takeover read is still to begin (on a turn of the loop, not in the
    /// callback), and must have begun by this instant.
    private var takeoverDue: ContinuousClock.Instant?
    private var processor: EventProcessor
    private let pipeline: DeliveryPipeline
    private var partitions = PartitionLifecycle()
    private var throttle: FetchThrottle
    private let watchdog: LoopWatchdog
    private let entered = Atomic<Bool>(false)
    private let rulesVersion: String

    init(configuration: WorkerConfiguration, engine: any QuoteEngine, clock: any Clock, logger: Logger, metrics: WorkerMetrics,
         control: WorkerControl, consumer: KafkaConsumer, producer: KafkaProducer, stateProducer: KafkaProducer,
         takeovers: TakeoverReader) {
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
        self.control = control
        self.consumer = consumer
        self.producer = producer
        self.stateProducer = stateProducer
        self.takeovers = takeovers
        rulesVersion = engine.version
        processor = EventProcessor(settings: .init(topics: configuration.topics, defaultTimeToLive: configuration.defaultTimeToLive),
                                   engine: engine, clock: clock)
        processor.onQuoted = { metrics.observeQuoteDuration($0) }
        pipeline = DeliveryPipeline(sink: RecordRoutes(replies: producer, state: stateProducer, stateTopic: configuration.topics.quoteState),
                                    observer: .reporting(to: logger, metrics: metrics, clock: clock),
                                    wake: { consumer.wakeUp() })
        throttle = FetchThrottle(pauseAt: configuration.effectivePauseFetchingAt)
        // From the watchdog's thread, while this one is stuck in a batch: leave the group so others take
        // the partitions (librdkafka's unsubscribe is safe from any thread), and stop once the batch lets go.
        watchdog = LoopWatchdog(limit: configuration.effectiveStallLimit) { [control, consumer] elapsed in
            logger.error("batch stalled longer than max.poll.interval.ms; leaving the consumer group", [
                "elapsed_ms": .number(WorkerFailure.milliseconds(elapsed)),
                "limit_ms": .number(WorkerFailure.milliseconds(configuration.effectiveStallLimit))])
            control.fail(WorkerFailure.stalled(elapsed: elapsed, limit: configuration.effectiveStallLimit))
            consumer.unsubscribe()
        }
    }

    func run() throws {
        precondition(!entered.exchange(true, ordering: .relaxed), "a worker runs once")
        try checkTopics()
        try consumer.subscribe([configuration.topics.addressChanged])
        logger.info("worker started", ["input": .text(configuration.topics.addressChanged), "rules_version": .text(rulesVersion)])
        watchdog.start()
        defer { watchdog.stop() }
        var lastCommit = ContinuousClock.now
        var lastSweep = ContinuousClock.now
        while !control.stopRequested && control.fatalError == nil {
            metrics.health.loopTurned()
            pipeline.pump(owned: partitions.owns)
            let restoring = partitions.isRestoring
            if restoring { continueRestore() }
            // While restoring, the restore's own read does the waiting.
            handle(partitions.admit(consumer.poll(maxMessages: configuration.maxBatch,
                                                  timeoutMs: restoring ? 0 : configuration.pollTimeoutMs)))
            adjustFetching()
            if ContinuousClock.now - lastCommit >= configuration.commitInterval {
                commit(partitions.owned)
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

    /// The state topic must have a partition for every input partition (same key, same number).
    private func checkTopics() throws {
        let input = try consumer.partitionCount(configuration.topics.addressChanged)
        let state = try takeovers.partitionCount()
        guard state == input else { throw WorkerSetupError.statePartitions(configuration.topics, state: state, input: input) }
    }

    private func handle(_ batch: [KafkaMessage]) {
        guard !batch.isEmpty else { return }
        metrics.eventReceived(count: batch.count)
        watchdog.batchBegan()
        var tally = DispositionTally()
        processor.process(batch, shouldStop: { control.fatalError != nil }) { record in
            guard record.disposition != .leftForReplay else { return }
            pipeline.submit(record.chains, source: record.source, offset: record.offset)
            tally.add(record)
            logger.record(record)
        }
        metrics.record(tally)
        watchdog.batchEnded()
        metrics.setTrackedSessions(processor.gate.trackedSessions)
    }

    // MARK: - Fetching

    /// Pauses fetching while too many records wait to be produced, and pauses restoring partitions
    /// once their records arrive.
    private func adjustFetching() {
        let waiting = pipeline.waiting
        switch throttle.change(waiting: waiting) {
        case .pause?: logger.warning("producer queue full; fetching paused", ["waiting_records": .int(waiting), "pause_at": .int(throttle.pauseAt)])
        case .resume?: logger.info("producer queue drained; fetching resumed", ["waiting_records": .int(waiting)])
        case nil: break
        }
        let change = partitions.reconcile(throttled: throttle.isPaused)
        if !change.pause.isEmpty { consumer.pause(change.pause) }
        if !change.resume.isEmpty { consumer.resume(change.resume) }
    }

    // MARK: - Partitions

    func rebalanced(_ event: KafkaRebalanceEvent) {
        switch event {
        case .assigned(let assigned):
            // Not paused here: a pause this close to the assignment can stop librdkafka from ever
            // fetching the partition (PartitionLifecycle); its records are held until it is restored.
            partitions.assigned(assigned)
            takeoverDue = assigned.isEmpty ? nil : .now + configuration.restoreTimeout
            logger.info("partitions assigned", ["partitions": .text(assigned.map(\.description).joined(separator: ","))])
        case .revoked(let revoked):
            // Finish what this worker started on them, so the next owner starts after it.
            drain(Set(revoked), within: configuration.shutdownGrace)
            commit(Set(revoked))
            takeovers.cancel()
            takeoverDue = nil
            pipeline.forget(revoked)
            processor.forget(revoked)
            consumer.resume(partitions.revoked(revoked))
            logger.info("partitions revoked", ["partitions": .text(revoked.map(\.description).joined(separator: ","))])
        }
        metrics.setTrackedSessions(processor.gate.trackedSessions)
        metrics.health.setAssigned(count: partitions.owned.count)
        control.setAssignment(partitions.owned.sorted())
    }

    /// One bounded step of the takeover read (begun on the first turn after the assignment); once
    /// every restoring partition is read, they are resumed and the records held meanwhile handled.
    private func continueRestore() {
        let restoring = partitions.restoring
        if let deadline = takeoverDue {
            do {
                let committed = try consumer.committed(restoring)
                try takeovers.begin(restoring.map(\.partition),
                                    committed: Dictionary(uniqueKeysWithValues: committed.map { ($0.key.partition, $0.value) }),
                                    timeout: configuration.restoreTimeout)
                takeoverDue = nil
            } catch where ContinuousClock.now < deadline {
                // A coordinator or leader moving: asked again on the next turn.
                logger.warning("takeover read not begun; will retry", ["code": .text(error.name), "detail": .text(error.message)])
                return
            } catch {
                return fail(error, "sequence state could not be read")
            }
        }
        do {
            guard let done = try takeovers.step(waitMs: Int32(min(configuration.pollTimeoutMs, 20))) else { return }
            for tp in restoring {
                processor.restore(tp, done.sessions[tp.partition] ?? [:], replay: done.replay[tp.partition])
            }
            logger.info("sequence state restored", [
                "sessions": .int(done.sessions.values.reduce(0) { $0 + $1.count }),
                "replayed_records": .int(done.replay.values.reduce(0) { $0 + $1.records }),
                "milliseconds": .number(WorkerFailure.milliseconds(done.took))])
            handle(partitions.restored(restoring))
        } catch {
            fail(error, "sequence state could not be restored")
        }
    }

    /// Answering without the state could publish an old answer over a newer one: stop instead.
    private func fail(_ error: any Error, _ message: String) {
        control.fail(error)
        logger.error(message, ["detail": .text("\(error)")])
    }

    // MARK: - Offsets, expiry, shutdown

    private func commit(_ owned: Set<KafkaTopicPartition>) {
        let finished = pipeline.committable(owned)
        guard !finished.isEmpty else { return }
        do {
            try consumer.commit(finished)
            pipeline.markCommitted(finished)
        } catch {
            logger.warning("commit failed; will retry", ["code": .text(error.name), "detail": .text(error.message)])
        }
    }

    /// Waits, up to `limit`, until every fetched record of `these` partitions is delivered or dropped.
    private func drain(_ these: Set<KafkaTopicPartition>? = nil, within limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while pipeline.unfinished(in: these) > 0 && ContinuousClock.now < deadline && control.fatalError == nil {
            // A flush sends at once whatever lingers (librdkafka ignores linger.ms while it flushes).
            _ = stateProducer.flush(timeoutMs: 10)
            _ = producer.flush(timeoutMs: 10)
            pipeline.pump(owned: partitions.owns)
        }
    }

    private func evictIdleSessions() {
        let tombstones = processor.evictIdleSessions(idleTimeout: configuration.sessionIdleTimeout)
        guard !tombstones.isEmpty else { return }
        tombstones.forEach(pipeline.sendUntracked)
        metrics.setTrackedSessions(processor.gate.trackedSessions)
        logger.info("idle sessions evicted", ["count": .int(tombstones.count)])
    }

    private func shutDown() {
        metrics.health.setStopping()
        drain(within: configuration.shutdownGrace)
        commit(partitions.owned)
        consumer.close()
        // Stopped on a fatal client error, the process exits next: the consumer is not destroyed,
        // which librdkafka 2.0.2 was seen to spin in forever after such an error.
        if case WorkerFailure.kafkaClientFailed? = control.fatalError { consumer.abandon() }
        takeovers.close()
        stateProducer.close(timeoutMs: 1_000)
        producer.close(timeoutMs: 1_000)
        let unfinished = pipeline.unfinished()
        if unfinished > 0 {
            logger.warning("records left unfinished at shutdown; they will be replayed", ["count": .int(unfinished)])
        }
    }
}
