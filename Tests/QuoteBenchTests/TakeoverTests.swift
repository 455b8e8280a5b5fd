@testable import QuoteBench
import Testing

/// The pure parts of `bench takeover`: when each partition of the killed worker was answered
/// again, and which settings the figure may be taken with. (An older reply after a newer one is
/// the ledger's stale reply: ReplyLedgerTests.)
@Suite struct TakeoverTests {
    private let second: UInt64 = 1_000_000_000

    @Test func eachPartitionsFirstReplyToAnEventSentAfterTheKillCounts() {
        let kill = 10 * second
        let arrivals = [
            ReplyArrival(partition: 1, receivedAt: kill + second / 100, eventSentAt: kill - second),   // the dead worker's, read late
            ReplyArrival(partition: 1, receivedAt: kill + 7 * second, eventSentAt: kill + 2 * second),
            ReplyArrival(partition: 1, receivedAt: kill + 6 * second, eventSentAt: kill + 3 * second), // out of order: the earlier wins
            ReplyArrival(partition: 4, receivedAt: kill + 8 * second, eventSentAt: kill + second),
            ReplyArrival(partition: 2, receivedAt: kill + second, eventSentAt: kill + second / 2),     // not the dead worker's
            ReplyArrival(partition: 4, receivedAt: kill - second, eventSentAt: kill - 2 * second),
        ]
        let first = TakeoverTimeline.firstReplies(arrivals, killedAt: kill, partitions: [1, 4, 6])
        #expect(first == [1: 6.0, 4: 8.0])   // partition 6: never answered again
    }

    @Test func theFigureIsTakenWithTheProductsGroupSettingsOnly() throws {
        var settings = TakeoverSettings()
        try settings.validate()
        #expect(settings.kafkaAssignments == ["fetch.wait.max.ms=5"])
        for key in ["session.timeout.ms", "heartbeat.interval.ms", "max.poll.interval.ms"] {
            settings.kafkaAssignments = ["\(key)=1000"]
            #expect(throws: BenchSettingsError("bench takeover measures the product's group settings: -X \(key) is not allowed")) {
                try settings.validate()
            }
        }
        settings.kafkaAssignments = []
        settings.workers = 1
        #expect(throws: BenchSettingsError.self) { try settings.validate() }
    }
}
