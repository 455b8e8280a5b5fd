import Kafka
import QuoteContract
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

    @Test func admittingChecksStaleAndDuplicateBeforeSupersededAndTakesOnlyWhatPasses() {
        var gate = SequenceGate()
        let first = gate.admit(session: "s", sequence: 3, offset: 10, newestKnown: .min, nowMs: 100, in: Self.p0)
        #expect(first == .taken(SequenceGate.Entry(sequence: 3, sourceOffset: 10, lastSeenMs: 100)))
        // Stale and duplicate are told before superseded, and none of them changes the entry.
        #expect(gate.admit(session: "s", sequence: 2, offset: 11, newestKnown: 9, nowMs: 200, in: Self.p0) == .dropped(.stale))
        #expect(gate.admit(session: "s", sequence: 3, offset: 12, newestKnown: 9, nowMs: 200, in: Self.p0) == .dropped(.duplicate))
        #expect(gate.admit(session: "s", sequence: 4, offset: 13, newestKnown: 5, nowMs: 200, in: Self.p0) == .dropped(.superseded))
        #expect(gate.admit(session: "new", sequence: 1, offset: 14, newestKnown: 2, nowMs: 200, in: Self.p0) == .dropped(.superseded))
        #expect(gate.entry(session: "s", in: Self.p0) == SequenceGate.Entry(sequence: 3, sourceOffset: 10, lastSeenMs: 100))
        #expect(gate.entry(session: "new", in: Self.p0) == nil)
        // A replay of the very record taken is taken again; the newest known may equal the sequence.
        #expect(gate.admit(session: "s", sequence: 3, offset: 10, newestKnown: 3, nowMs: 300, in: Self.p0)
            == .taken(SequenceGate.Entry(sequence: 3, sourceOffset: 10, lastSeenMs: 300)))
        #expect(gate.trackedSessions == 1)
    }

    /// Admitting is verdict, the superseded check and take in one access: over random events,
    /// restores, revokes and evictions, both ways leave the same verdicts and entries, and
    /// `isLatest` (which remembers the entry stored last) always agrees with the entries.
    @Test func admittingAndAskingIsLatestAgreeWithVerdictTakeAndTheEntriesOverRandomHistories() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var admitted = SequenceGate(), stepwise = SequenceGate()
            let partitions = [Self.p0, Self.p1], sessions: [SessionKey] = ["a", "b", "c"]
            for step in 0..<60 {
                let tp = partitions.randomElement(using: &random)!, session = sessions.randomElement(using: &random)!
                let sequence = Int64.random(in: 1...8, using: &random), offset = Int64.random(in: 0...5, using: &random)
                switch Int.random(in: 0..<20, using: &random) {
                case 0:
                    let entries: [SessionKey: SequenceGate.Entry] = ["a": SequenceGate.Entry(sequence: Int64.random(in: 1...8, using: &random), sourceOffset: 0, lastSeenMs: 0)]
                    admitted.restore(tp, entries); stepwise.restore(tp, entries)
                case 1: admitted.forget([tp]); stepwise.forget([tp])
                case 2: _ = admitted.evictIdle(before: Int64(step - 10)); _ = stepwise.evictIdle(before: Int64(step - 10))
                case 3:
                    admitted.take(session: session, sequence: sequence, offset: offset, nowMs: Int64(step), in: tp)
                    stepwise.take(session: session, sequence: sequence, offset: offset, nowMs: Int64(step), in: tp)
                default:
                    let newestKnown = Bool.random(using: &random) ? Int64.min : Int64.random(in: 1...8, using: &random)
                    let result = admitted.admit(session: session, sequence: sequence, offset: offset, newestKnown: newestKnown,
                                                nowMs: Int64(step), in: tp)
                    let expected: SequenceGate.Admission
                    if case .drop(let reason) = stepwise.verdict(session: session, sequence: sequence, offset: offset, in: tp) {
                        expected = .dropped(reason)
                    } else if sequence < newestKnown {
                        expected = .dropped(.superseded)
                    } else {
                        expected = .taken(stepwise.take(session: session, sequence: sequence, offset: offset, nowMs: Int64(step), in: tp))
                    }
                    #expect(result == expected)
                }
                for p in partitions {
                    for name in sessions {
                        #expect(admitted.entry(session: name, in: p) == stepwise.entry(session: name, in: p))
                        for asked in Int64(1)...8 {
                            let newest = admitted.entry(session: name, in: p)?.sequence ?? 0
                            #expect(admitted.isLatest(session: name, sequence: asked, in: p) == (newest <= asked))
                        }
                    }
                }
            }
        }
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

    /// A backlog's batch: a few answered records (a reply and a state record each) among many
    /// superseded ones (nothing to deliver). Each report finds its record wherever it lies, in any
    /// order, and the commit moves to the first record still waiting.
    @Test func aBacklogsFewAnsweredRecordsAmongManySupersededFinishInAnyOrder() {
        var t = OffsetTracker()
        let answered: [Int64] = [7, 500, 1_203, 1_999]
        for offset in Int64(0)..<2_000 { t.register(Self.tp, offset: offset, deliveries: answered.contains(offset) ? 2 : 0) }
        #expect(t.committable() == [Self.tp: 7])
        #expect(t.unfinished() == 1_993)
        for offset in [1_999, 500, 1_203] as [Int64] { t.finishDelivery(Self.tp, offset: offset) }
        t.finishDelivery(Self.tp, offset: 7)
        #expect(t.committable() == [Self.tp: 7])
        t.finishDelivery(Self.tp, offset: 7)
        #expect(t.committable() == [Self.tp: 500])
        for offset in [1_999, 1_203, 500] as [Int64] { t.finishDelivery(Self.tp, offset: offset) }
        #expect(t.committable() == [Self.tp: 2_000])
        #expect(t.unfinished() == 0)
        // A report for a record no longer waiting (or never registered) changes nothing.
        t.finishDelivery(Self.tp, offset: 1_203)
        t.finishDelivery(Self.tp, offset: 5_000)
        #expect(t.committable() == [Self.tp: 2_000])
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
