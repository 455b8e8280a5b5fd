@testable import QuoteBench
import Testing

/// The ledger matches replies to what was sent by their headers, and counts what the contract's forbids.
@Suite struct ReplyLedgerTests {
    /// Session 0 sends 1, 2, 3 back to back; session 1 sends 1; session 2 is planned but never sent.
    private let plan = LoadPlan(sessions: 3, events: [.init(session: 0, sequence: 1), .init(session: 0, sequence: 2),
                                                      .init(session: 0, sequence: 3), .init(session: 1, sequence: 1),
                                                      .init(session: 2, sequence: 1)])

    private func reply(_ ledger: ReplyLedger, session: Int32, sequence: String, at now: UInt64 = 1_000_000) {
        ledger.received(sessionHeader: Array(BenchEvents.sessionID(session).utf8), sequenceHeader: Array(sequence.utf8), at: now)
    }

    private func sendFirstFour(_ ledger: ReplyLedger) {
        for i in 0..<4 { ledger.sent(i, at: UInt64(i + 1) * 1_000) }
    }

    /// The tally once the first four events are sent and these replies (session, sequence header) received.
    private func tally(answering replies: [(Int32, String)]) -> ReplyLedger.Tally {
        let ledger = ReplyLedger(plan: plan)
        sendFirstFour(ledger)
        for (session, sequence) in replies { reply(ledger, session: session, sequence: sequence) }
        return ledger.tally()
    }

    @Test func aSessionWhoseLatestSequenceIsUnansweredIsMissing() {
        let ledger = ReplyLedger(plan: plan)
        sendFirstFour(ledger)
        reply(ledger, session: 0, sequence: "2")
        reply(ledger, session: 1, sequence: "1")
        #expect(ledger.tally() == ReplyLedger.Tally(replies: 2, missing: 1, sessionsSent: 2, lastReplyAt: 1_000_000))
        reply(ledger, session: 0, sequence: "3", at: 2_000_000)
        #expect(ledger.tally() == ReplyLedger.Tally(replies: 3, missing: 0, sessionsSent: 2, lastReplyAt: 2_000_000))
    }

    @Test func aReplyBelowOneAlreadyPublishedForItsSessionIsStale() {
        #expect(tally(answering: [(0, "3"), (0, "1"), (0, "2")])
            == ReplyLedger.Tally(replies: 3, staleReplies: 2, missing: 1, sessionsSent: 2, lastReplyAt: 1_000_000))
    }

    @Test func aSecondReplyToTheSameSequenceIsADuplicateNotStale() {
        #expect(tally(answering: [(1, "1"), (1, "1")])
            == ReplyLedger.Tally(replies: 2, duplicateReplies: 1, missing: 1, sessionsSent: 2, lastReplyAt: 1_000_000))
    }

    @Test func repliesTheLedgerCannotPlaceAreUnknownAndChangeNothingElse() {
        let ledger = ReplyLedger(plan: plan)
        sendFirstFour(ledger)
        reply(ledger, session: 0, sequence: "4")          // beyond the session's plan
        reply(ledger, session: 0, sequence: "0")
        reply(ledger, session: 0, sequence: "x1")
        reply(ledger, session: 3, sequence: "1")          // beyond the plan's sessions
        ledger.received(sessionHeader: Array("someone-else".utf8), sequenceHeader: Array("1".utf8), at: 5)
        ledger.received(sessionHeader: nil, sequenceHeader: Array("1".utf8), at: 5)
        ledger.received(sessionHeader: Array(BenchEvents.sessionID(0).utf8), sequenceHeader: nil, at: 5)
        #expect(ledger.tally() == ReplyLedger.Tally(unknownReplies: 7, missing: 2, sessionsSent: 2))
        #expect(ledger.latencySamples().isEmpty)
    }

    @Test func warmUpRepliesAreCountedApartFromTheMeasuredOnes() {
        let ledger = ReplyLedger(plan: plan)
        ledger.received(sessionHeader: Array(BenchEvents.sessionID(0, prefix: BenchEvents.warmupPrefix).utf8),
                        sequenceHeader: Array("1".utf8), at: 5)
        ledger.received(sessionHeader: Array(BenchEvents.sessionID(7, prefix: BenchEvents.warmupPrefix).utf8),
                        sequenceHeader: Array("1".utf8), at: 6)
        // A partition's warm-up sent again (its first event expired, say) and answered twice counts once.
        ledger.received(sessionHeader: Array(BenchEvents.sessionID(7, prefix: BenchEvents.warmupPrefix).utf8),
                        sequenceHeader: Array("2".utf8), at: 7)
        #expect(ledger.warmedUp == [0, 7])
        #expect(ledger.tally() == ReplyLedger.Tally())
    }

    @Test func latencyRunsFromTheEventsSendToItsReplysReceipt() {
        let ledger = ReplyLedger(plan: plan)
        sendFirstFour(ledger)                              // event i sent at (i + 1) µs
        reply(ledger, session: 0, sequence: "2", at: 4_002_000)
        reply(ledger, session: 1, sequence: "1", at: 1_004_000)
        #expect(ledger.latencySamples() == [0.004, 0.001])
    }

    @Test func aReplyToAnEventNotYetStampedHasNoLatency() {
        let ledger = ReplyLedger(plan: plan)
        reply(ledger, session: 2, sequence: "1")
        #expect(ledger.latencySamples().isEmpty)
        #expect(ledger.tally() == ReplyLedger.Tally(replies: 1, lastReplyAt: 1_000_000))
    }
}
