@testable import QuoteBench
import Testing

/// The plan decides, before any phase runs, which session sends which sequence: the same seed
/// must give every phase (and every run) the very same load.
@Suite struct LoadPlanTests {
    private func pairs(_ plan: LoadPlan) -> [String] { plan.events.map { "\($0.session):\($0.sequence)" } }

    @Test func aSeededPlanSendsTheSameSessionsAndSequencesEveryTime() {
        let plan = LoadPlan(sessions: 3, events: 10, burstFraction: 0.5)
        #expect(pairs(plan) == ["1:1", "1:2", "1:3", "1:4", "1:5", "1:6", "1:7", "1:8", "0:1", "0:2"])
        #expect(pairs(LoadPlan(sessions: 3, events: 10, burstFraction: 0.5)) == pairs(plan))
        #expect(plan.burstTurns == 2)   // runs of one session back to back: 1:1…1:8 and 0:1…0:2
    }

    @Test func anotherSeedGivesAnotherPlan() {
        #expect(pairs(LoadPlan(sessions: 3, events: 10, burstFraction: 0.5, seed: 1))
            != pairs(LoadPlan(sessions: 3, events: 10, burstFraction: 0.5)))
    }

    @Test func eachSessionsSequencesCountUpFromOneWithoutGaps() {
        let plan = LoadPlan(sessions: 50, events: 2_000, burstFraction: 0.3)
        var next = [Int32](repeating: 1, count: 50)
        for event in plan.events {
            #expect(event.sequence == next[Int(event.session)])
            next[Int(event.session)] += 1
        }
        #expect(plan.events.count == 2_000)
    }

    @Test func everyTurnIsABurstOfTwoOrThreeWhenTheFractionIsOne() {
        let plan = LoadPlan(sessions: 1_000, events: 12, burstFraction: 1)
        #expect(pairs(plan) == ["52:1", "52:2", "52:3", "197:1", "197:2", "368:1", "368:2", "368:3", "71:1", "71:2", "844:1", "844:2"])
        #expect(plan.burstTurns == 5)
    }

    @Test func noTurnIsABurstWhenTheFractionIsZero() {
        let plan = LoadPlan(sessions: 1_000, events: 500, burstFraction: 0)
        #expect(plan.burstTurns == 0)
    }

    @Test func aBurstIsCutShortAtThePlansLastEvent() {
        let plan = LoadPlan(sessions: 1, events: 5, burstFraction: 1)
        #expect(pairs(plan) == ["0:1", "0:2", "0:3", "0:4", "0:5"])
        #expect(plan.burstTurns == 1)   // one session back to back throughout: one run
    }
}
