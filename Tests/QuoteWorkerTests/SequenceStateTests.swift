import Foundation
import Kafka
import KafkaTesting
import QuoteContract
import QuoteWorker
import ShippingRules
import Testing

/// the contract's sequence check across restarts: the highest sequence per session lives in the
/// compacted state topic, and a new owner of a partition restores it before its first event.
@Suite(.serialized) struct SequenceStateTests {
    static func sequences(_ replies: [KafkaMessage]) throws -> [Int64] {
        try replies.map { try QuoteReply.decode($0.value).sequence }
    }

    @Test func anOlderSequenceAfterARestartIsStillDroppedAsStale() throws {
        let c = try SequenceCluster(partitions: 2)
        let first = try c.start()
        first.awaitAssignment()
        c.produce([c.event("s", 6)])
        #expect(first.awaitFinished(1).outcomes == ["update": 1])
        first.stop()

        let second = try c.start()
        second.awaitAssignment()
        c.produce([c.event("s", 5)])
        let m = second.awaitFinished(1)
        second.stop()
        #expect(m.drops == [.stale: 1])
        #expect(m.outcomes.isEmpty)
        #expect(try Self.sequences(c.read(c.topics.quoteReplies, timeout: 2) { $0.count > 1 }) == [6])
    }

    @Test func stateRecordsCarryTheSequenceAndOffsetInTheSamePartitionAsTheEvent() throws {
        let c = try SequenceCluster(partitions: 4)
        let w = try c.start()
        w.awaitAssignment()
        let reports = c.produce((1...3).map { KafkaOutgoingMessage(topic: c.topics.addressChanged, key: Array("k\($0)".utf8),
                                                               value: c.event("k\($0)", 2).encode()) })
        _ = w.awaitFinished(3)
        w.stop()
        let states = try c.read(c.topics.quoteState) { $0.count >= 3 }
        #expect(states.count == 3)
        for (i, report) in reports.enumerated() {
            guard case .delivered(let partition, let offset) = report else { Issue.record("not produced"); continue }
            let state = try #require(states.first { $0.keyText == "k\(i + 1)" })
            #expect(state.partition == partition)
            #expect(String(decoding: state.value, as: UTF8.self) ==
                    "{\"sequence\":2,\"offset\":\(offset),\"seen_ms\":\(RFC3339.epochMilliseconds(WorkerHarness.now))}")
        }
    }

    @Test func aRecordReplayedAfterACrashLostItsReplyIsAnsweredAgain() throws {
        // The state says sequence 4 was taken from offset 0, but nothing was committed: the old
        // owner died before its reply was delivered. The replay of that very record is answered.
        let c = try SequenceCluster(partitions: 1)
        let reports = c.produce([KafkaOutgoingMessage(topic: c.topics.addressChanged, key: Array("s".utf8), value: c.event("s", 4).encode())])
        guard case .delivered(_, let offset) = reports[0] else { Issue.record("not produced"); return }
        let state = "{\"sequence\":4,\"offset\":\(offset),\"seen_ms\":\(RFC3339.epochMilliseconds(WorkerHarness.now))}"
        c.produce([KafkaOutgoingMessage(topic: c.topics.quoteState, key: Array("s".utf8), value: Array(state.utf8), partition: 0)])
        // A second record with the same sequence (a gateway re-sending) is a duplicate.
        c.produce([c.event("s", 4)])
        let w = try c.start()
        let m = w.awaitFinished(2)
        w.stop()
        #expect(m.outcomes == ["update": 1])
        #expect(m.drops == [.duplicate: 1])
    }

    @Test func idleSessionsAreEvictedWithATombstoneAndStartAfresh() throws {
        let c = try SequenceCluster(partitions: 1)
        let clock = ManualClock(WorkerHarness.now)
        let w = try c.start(clock: clock) {
            $0.sessionIdleTimeout = 60
            $0.sessionSweepInterval = .milliseconds(50)
            $0.defaultTimeToLive = nil
        }
        w.awaitAssignment()
        c.produce([c.event("idle", 9)])
        _ = w.awaitFinished(1)
        #expect(w.worker.metrics.snapshot().trackedSessions == 1)
        clock.advance(by: 61)
        let states = try c.read(c.topics.quoteState) { $0.count >= 2 }
        #expect(states.map(\.isTombstone) == [false, true])
        #expect(states.last?.keyText == "idle")
        // Forgotten: a new checkout reusing the id starts again at sequence 1.
        c.produce([c.event("idle", 1)])
        let m = w.awaitFinished(2)
        w.stop()
        #expect(m.outcomes == ["update": 2])
        #expect(m.trackedSessions == 1)
    }

    @Test func aStateTopicWithAnotherPartitionCountStopsTheWorkerWithAClearMessage() throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, topics: [
            KafkaTopicSpec(Topics.defaultAddressChanged, partitions: 4), KafkaTopicSpec(Topics.defaultQuoteState, partitions: 2)])
        let config = WorkerConfiguration(kafka: KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers]))
        let worker = try Worker(configuration: config, engine: try RuleLibrary.load(path: WorkerHarness.exampleRulesPath),
                                logger: .silent)
        #expect {
            try worker.run()
        } throws: { error in
            "\(error)".hasPrefix("topic shipping.quote-state has 2 partitions and shipping.address-changed has 4")
        }
    }

    @Test func aPartitionWithAHundredThousandSessionsIsRestoredBeforeItsFirstEvent() throws {
        let c = try SequenceCluster(partitions: 1)
        let seen = RFC3339.epochMilliseconds(WorkerHarness.now)
        let count = 100_000
        // Compressed batches: the embedded broker keeps only about 5 MiB a partition, and 100,000
        // plain state records would pass that (a real broker keeps what its retention says).
        let loader = try KafkaProducer(configuration: KafkaConfiguration([
            "bootstrap.servers": c.cluster.bootstrapServers, "compression.type": "lz4", "linger.ms": "20",
            "batch.num.messages": "10000"]))
        let group = DispatchGroup()
        for i in 0..<count {
            group.enter()
            try loader.send(KafkaOutgoingMessage(topic: c.topics.quoteState, key: Array("session-\(i)".utf8),
                                            value: Array("{\"sequence\":5,\"offset\":\(i),\"seen_ms\":\(seen)}".utf8),
                                            partition: 0)) { _ in group.leave() }
        }
        group.wait()
        loader.close(timeoutMs: 1_000)
        let lines = LogLines()
        let started = ContinuousClock.now
        let w = try c.start(logger: Logger(minimum: .info, write: lines.append))
        w.awaitAssignment(timeout: 60)
        let elapsed = ContinuousClock.now - started
        c.produce([c.event("session-77", 5), c.event("session-78", 6)])
        let m = w.awaitFinished(2)
        w.stop()
        #expect(m.drops == [.duplicate: 1])
        #expect(m.outcomes == ["update": 1])
        let restored = try #require(lines.all.first { $0.contains("\"body\":\"sequence state restored\"") })
        #expect(restored.contains("\"sessions\":\(count)"))
        print("restored \(count) sessions; join + restore took \(elapsed); worker log: \(restored)")
    }
}

/// Collects log lines for a test to read.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] { lock.withLock { lines } }
    var append: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
}
