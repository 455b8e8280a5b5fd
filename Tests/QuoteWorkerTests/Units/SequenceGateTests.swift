import Kafka
@testable import QuoteWorker
import Testing

@Suite struct SequenceGateTests {
    static let p0 = KafkaTopicPartition("in", 0)
    static let p1 = KafkaTopicPartition("in", 1)

    @Test func aSessionNeverSeenIsTakenAndThenOnlyNewerSequencesAre() {
        var gate = SequenceGate()
        #expect(gate.verdict(session: "s", sequence: 3, offset: 10, in: Self.p0) == .take)
        gate.take(session: "s", sequence: 3, offset: 10, nowMs: 100, in: Self.p0)
        #expect(gate.verdict(session: "s", sequence: 2, offset: 11, in: Self.p0) == .drop(.stale))
        #expect(gate.verdict(session: "s", sequence: 3, offset: 12, in: Self.p0) == .drop(.duplicate))
        #expect(gate.verdict(session: "s", sequence: 3, offset: 10, in: Self.p0) == .take)  // a replay of that very record
        #expect(gate.verdict(session: "s", sequence: 4, offset: 13, in: Self.p0) == .take)
        #expect(gate.isLatest(session: "s", sequence: 3, in: Self.p0))
        #expect(!gate.isLatest(session: "s", sequence: 2, in: Self.p0))
    }

    @Test func takingAnOlderSequenceKeepsTheNewerEntry() {
        var gate = SequenceGate()
        gate.take(session: "s", sequence: 5, offset: 1, nowMs: 100, in: Self.p0)
        let kept = gate.take(session: "s", sequence: 4, offset: 2, nowMs: 200, in: Self.p0)
        #expect(kept == SequenceGate.Entry(sequence: 5, sourceOffset: 1, lastSeenMs: 100))
    }

    @Test func sessionsAreKeptPerPartition() {
        var gate = SequenceGate()
        gate.take(session: "s", sequence: 5, offset: 1, nowMs: 100, in: Self.p0)
        #expect(gate.verdict(session: "s", sequence: 1, offset: 0, in: Self.p1) == .take)
        gate.forget([Self.p0])
        #expect(gate.trackedSessions == 0)
    }

    @Test func idleSessionsAreEvictedAndNamed() {
        var gate = SequenceGate()
        gate.take(session: "old", sequence: 1, offset: 1, nowMs: 100, in: Self.p0)
        gate.take(session: "new", sequence: 1, offset: 2, nowMs: 300, in: Self.p1)
        let evicted = gate.evictIdle(before: 200)
        #expect(evicted.map(\.partition) == [Self.p0.partition] && evicted.map(\.session) == ["old"])
        #expect(gate.trackedSessions == 1)
    }
}

@Suite struct OffsetTrackerTests {
    static let tp = KafkaTopicPartition("in", 0)

    @Test func deliveriesFinishingOutOfOrderCommitOnlyTheFinishedPrefix() {
        var t = OffsetTracker()
        t.register(Self.tp, offset: 10, deliveries: 1)
        t.register(Self.tp, offset: 11, deliveries: 2)
        t.register(Self.tp, offset: 12, deliveries: 1)
        t.finishDelivery(Self.tp, offset: 12)
        t.finishDelivery(Self.tp, offset: 11)
        #expect(t.committable().isEmpty)
        t.finishDelivery(Self.tp, offset: 10)
        #expect(t.committable() == [Self.tp: 11])
        t.finishDelivery(Self.tp, offset: 11)
        #expect(t.committable() == [Self.tp: 13])
        #expect(t.unfinished() == 0)
    }

    @Test func aForgottenPartitionIgnoresLateDeliveries() {
        var t = OffsetTracker()
        t.register(Self.tp, offset: 0, deliveries: 1)
        t.forget([Self.tp])
        t.finishDelivery(Self.tp, offset: 0)
        #expect(t.committable().isEmpty && t.unfinished() == 0)
    }
}

@Suite struct FetchThrottleTests {
    @Test func pausesAtTheLimitAndResumesOnlyAtHalfOfIt() {
        var throttle = FetchThrottle(pauseAt: 100)
        #expect(throttle.change(waiting: 99) == nil)
        #expect(throttle.change(waiting: 100) == .pause)
        #expect(throttle.change(waiting: 120) == nil)
        #expect(throttle.change(waiting: 51) == nil)
        #expect(throttle.isPaused)
        #expect(throttle.change(waiting: 50) == .resume)
        #expect(throttle.change(waiting: 60) == nil)
    }
}
