import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import ShippingRules
import Testing

/// Issue 5, broken brokers, with the embedded broker's fault injection: the worker stays alive or
/// stops with a clear error, never hangs, loses no reply and never publishes two different ones.
@Suite(.serialized) struct BrokenBrokerTests {
    @Test func aBrokerDownTenSecondsUnderLoadThenUpLosesNoLatestReply() throws {
        let cluster = try SequenceCluster(partitions: 4)
        let worker = try cluster.start()
        worker.awaitAssignment()
        let memory = MemorySampler()
        let load = SteadyLoad(cluster, sessions: 40, prefix: "down")
        Thread.sleep(forTimeInterval: 1)
        cluster.cluster.setBrokerDown(1)
        Thread.sleep(forTimeInterval: 10)
        cluster.cluster.setBrokerUp(1)
        let up = ContinuousClock.now
        Thread.sleep(forTimeInterval: 1)
        let latest = load.finish()
        let watch = try ReplyWatch(cluster)
        let answered = watch.awaitLatest(latest)
        let recovery = ContinuousClock.now - up
        let peak = memory.stop()
        #expect(answered, "latest sequences without a reply: \(watch.missing(latest).prefix(10))")
        #expect(worker.error == nil, "the worker stopped: \(worker.error ?? "")")
        #expect(watch.conflicting.isEmpty, "published twice with different content: \(watch.conflicting.prefix(5))")
        print("broker down 10 s under load: \(latest.count) sessions, latest sequences up to \(latest.values.max() ?? 0); every latest answered "
              + "\(recovery) after the broker came back (load went on for 1 s of it); peak RSS \(ResidentMemory.mebibytes(peak))")
        worker.stop()
    }

    @Test func produceAndCommitRequestsFailingWithRetriableErrorsLoseNoReplyAndNeverDiffer() throws {
        let cluster = try SequenceCluster(partitions: 4)
        let worker = try cluster.start()
        worker.awaitAssignment()
        let memory = MemorySampler()
        // NOT_LEADER_FOR_PARTITION (6) and REQUEST_TIMED_OUT (7) on Produce (0) and OffsetCommit (8).
        let errors: [Int32] = [6, 7, 6, 7, 7, 6]
        var latest: [String: Int64] = [:]
        for round in 1...4 {
            cluster.cluster.failNextRequests(apiKey: 0, withErrorCodes: errors)
            cluster.cluster.failNextRequests(apiKey: 8, withErrorCodes: errors)
            let events = (0..<50).map { cluster.event("retry-\($0)", Int64(round)) }
            cluster.produce(events)
            for e in events { latest[e.sessionID] = e.sequence }
            Thread.sleep(forTimeInterval: 0.3)
        }
        let watch = try ReplyWatch(cluster)
        #expect(watch.awaitLatest(latest), "latest sequences without a reply: \(watch.missing(latest).prefix(10))")
        #expect(watch.conflicting.isEmpty, "published twice with different content: \(watch.conflicting.prefix(5))")

        // Failed commits are retried until they go through: the group's offsets reach the end of the input.
        var config = cluster.kafka
        config["group.id"] = "sequence-tests"
        let probe = try KafkaConsumer(configuration: config) { _ in }
        defer { probe.close() }
        let partitions = (0..<Int32(4)).map { KafkaTopicPartition(cluster.topics.addressChanged, $0) }
        let ends = Dictionary(uniqueKeysWithValues: try partitions.map { ($0, try probe.watermarks($0).high) })
        var committed: [KafkaTopicPartition: Int64] = [:]
        let deadline = Date().addingTimeInterval(30)
        repeat {
            committed = (try? probe.committed(partitions)) ?? [:]
            if committed == ends { break }
            usleep(100_000)
        } while Date() < deadline
        #expect(committed == ends, "committed \(committed) of \(ends)")
        worker.stop()
        #expect(worker.error == nil, "\(worker.error ?? "")")
        print("retriable Produce and OffsetCommit errors: \(latest.count) sessions × 4 sequences, every latest answered, "
              + "\(watch.publishedTwice) replies published twice (identical), none different; peak RSS \(ResidentMemory.mebibytes(memory.stop()))")
    }

    @Test func aProducerQueueThatFillsPausesFetchingInsteadOfGrowing() throws {
        let cluster = try SequenceCluster(partitions: 4)
        let events = (0..<3_000).map { cluster.event("slow-\($0)", 1) }
        cluster.produce(events)
        let log = CapturedLog()
        let memory = MemorySampler()
        // A slow broker and a small producer queue: replies cannot leave as fast as events arrive.
        cluster.cluster.setRoundTripTime(broker: 1, milliseconds: 50)
        let worker = try cluster.start(logger: log.logger(minimum: .info)) { config in
            config.kafka["queue.buffering.max.messages"] = "200"
        }
        let watch = try ReplyWatch(cluster)
        let answered = watch.awaitLatest(Dictionary(uniqueKeysWithValues: events.map { ($0.sessionID, $0.sequence) }), timeout: 120)
        cluster.cluster.setRoundTripTime(broker: 1, milliseconds: 0)
        worker.stop()
        let peak = memory.stop()
        let lines = log.all
        let pauses = lines.filter { $0.contains("fetching paused") }.count
        let resumes = lines.filter { $0.contains("fetching resumed") }.count
        #expect(answered)
        #expect(worker.error == nil, "\(worker.error ?? "")")
        #expect(pauses > 0, "the worker never paused fetching")
        #expect(resumes > 0)
        print("producer queue full (50 ms round trips, queue.buffering.max.messages=200, pause at 100): 3000 events answered; "
              + "fetching paused \(pauses) times, resumed \(resumes); peak RSS \(ResidentMemory.mebibytes(peak))")
    }

    @Test func aFatalProducerErrorStopsTheWorkerWithAClearErrorAndARestartAnswersEverything() throws {
        let cluster = try SequenceCluster(partitions: 2)
        let engine = HeldQuoteEngine(cluster.rules)
        let log = CapturedLog()
        var config = WorkerConfiguration(kafka: cluster.kafka)
        config.shutdownGrace = .seconds(2)
        let worker = RunningWorker(try Worker(configuration: config, engine: engine, clock: ManualClock(WorkerHarness.now),
                                              logger: log.logger(minimum: .info)))
        worker.awaitAssignment()
        let first = (0..<8).map { cluster.event("fatal-\($0)", 1) }
        cluster.produce(first)
        _ = worker.awaitFinished(first.count)
        // Hold the next quotes, so that the worker's next Produce request is the one that fails
        // (the mock's injected errors go to whichever client asks next).
        engine.hold()
        let second = (0..<8).map { cluster.event("fatal-\($0)", 2) }
        cluster.produce(second)
        let deadline = Date().addingTimeInterval(30)
        while engine.waiting == 0 && Date() < deadline { usleep(10_000) }
        // OUT_OF_ORDER_SEQUENCE_NUMBER: librdkafka 2.0.2's idempotent producer takes it as fatal.
        cluster.cluster.failNextRequests(apiKey: 0, withErrorCodes: [45])
        let released = ContinuousClock.now
        engine.release()
        let stopDeadline = Date().addingTimeInterval(60)
        while worker.error == nil && Date() < stopDeadline { usleep(20_000) }
        let stoppedAfter = ContinuousClock.now - released
        let error = try #require(worker.error, "the worker neither stopped nor reported the fatal error")
        #expect(error.contains("OUT_OF_ORDER_SEQUENCE_NUMBER"))
        #expect(error.contains("the Kafka client failed for good"))
        #expect(log.all.contains { $0.contains("\"severity_text\":\"ERROR\"") && $0.contains("OUT_OF_ORDER_SEQUENCE_NUMBER") })
        worker.stop()
        print("fatal producer error: the worker stopped \(stoppedAfter) after the failing request with: \(error)")

        // A new worker (a new producer) answers every latest sequence.
        let restarted = try cluster.start()
        let latest = Dictionary(uniqueKeysWithValues: second.map { ($0.sessionID, $0.sequence) })
        let watch = try ReplyWatch(cluster)
        #expect(watch.awaitLatest(latest), "unanswered after the restart: \(watch.missing(latest))")
        #expect(watch.conflicting.isEmpty)
        restarted.stop()
    }

    @Test func aBatchStalledPastTheLimitIsNoticedLoggedAndTheWorkerLeavesItsGroup() throws {
        let cluster = try SequenceCluster(partitions: 4)
        let engine = HeldQuoteEngine(cluster.rules)
        let log = CapturedLog()
        var config = WorkerConfiguration(kafka: cluster.kafka)
        config.stallLimit = .seconds(2)  // in production: max.poll.interval.ms
        let stalled = RunningWorker(try Worker(configuration: config, engine: engine, clock: ManualClock(WorkerHarness.now),
                                               logger: log.logger(minimum: .info)))
        stalled.awaitAssignment()
        engine.hold()
        let event = cluster.event("stall-1", 1)
        cluster.produce([event])
        let deadline = Date().addingTimeInterval(30)
        while !log.all.contains(where: { $0.contains("batch stalled") }) && Date() < deadline { usleep(20_000) }
        let noticed = log.all.first { $0.contains("batch stalled") }
        #expect(noticed != nil, "the watchdog did not notice the stall")
        #expect(noticed?.contains("\"severity_text\":\"ERROR\"") == true)

        // It left the group: a newcomer is given every partition while the stalled one is still stuck.
        let started = ContinuousClock.now
        let newcomer = try cluster.start()
        let joinDeadline = Date().addingTimeInterval(60)
        while newcomer.worker.assignedPartitions.count < 4 && Date() < joinDeadline { usleep(50_000) }
        let tookOver = ContinuousClock.now - started
        #expect(newcomer.worker.assignedPartitions.count == 4, "the stalled worker still holds partitions")
        #expect(engine.waiting == 1, "the stall should still be going on")
        let watch = try ReplyWatch(cluster)
        #expect(watch.awaitLatest([event.sessionID: 1]), "the newcomer did not answer the stalled event")

        engine.release()
        stalled.stop()
        #expect(stalled.error?.contains("left its consumer group") == true, "\(stalled.error ?? "no error")")
        #expect(watch.conflicting.isEmpty)
        newcomer.stop()
        print("stall: noticed by the watchdog (limit 2 s): \(noticed ?? ""); a newcomer owned all 4 partitions \(tookOver) after it started; "
              + "the stalled worker stopped with: \(stalled.error ?? "")")
    }
}
