import Benchmarking
import Foundation

/// The figures of one phase.
struct PhaseResult {
    let name: String
    let system: String
    let rate: String
    /// Which round of the run (`--rounds`) the phase belongs to, from 1.
    var round = 1
    let planned: Int
    let produced: Int
    /// Events per second the generator handed to its producer during this phase.
    let produceRate: Double
    let generatorWorstLag: Double
    /// From the first event produced to the reply that answered the last session's latest event.
    let seconds: Double
    /// End to end: events produced / seconds. At a fixed rate it is the rate, when kept up.
    let eventsPerSecond: Double
    let latency: LatencySummary
    let histogram: LogHistogram
    let replies: Int
    /// Replies whose sequence is below one already published for the session: must be 0.
    let staleReplies: Int
    /// A second reply to the same sequence (a replay after a crash or rebalance may do this).
    let duplicateReplies: Int
    let unknownReplies: Int
    /// Sessions whose latest sent sequence got no reply by the end.
    let missing: Int
    let sessions: Int
    let counts: ServiceCounts
    let timedOut: Bool
    let failure: String?
    /// CPU used during the measured phase (first event produced to the last latest event answered).
    var cpu: CPU? = nil

    struct CPU {
        let seconds: Double
        /// Whose CPU it is: the worker processes, or the whole bench process.
        let scope: String
    }

    /// CPU seconds per 1,000 replies received in the phase; nil without CPU or replies.
    var cpuPerThousandAnswered: Double? { cpuPerThousand(replies) }
    /// CPU seconds per 1,000 events produced: under a backlog ShipQuote answers only each session's
    /// newest address, so per answered event its CPU looks dearer than it is per event handled.
    var cpuPerThousandEvents: Double? { cpuPerThousand(produced) }

    private func cpuPerThousand(_ n: Int) -> Double? {
        guard let cpu, n > 0 else { return nil }
        return cpu.seconds / Double(n) * 1_000
    }

    var json: [String: Any] {
        var latencyJSON: [String: Any] = ["count": latency.count, "p50": latency.p50, "p90": latency.p90, "p99": latency.p99,
                                          "p999": latency.p999, "max": latency.max, "mean": latency.mean]
        latencyJSON["unit"] = "seconds"
        var out: [String: Any] = [
            "name": name, "system": system, "rate": rate, "round": round, "events_planned": planned, "events_produced": produced,
            "generator_produce_rate": produceRate.rounded(), "generator_worst_lag_seconds": generatorWorstLag,
            "seconds": seconds, "events_per_second": eventsPerSecond.rounded(), "latency": latencyJSON,
            "replies": replies, "stale_replies": staleReplies, "duplicate_replies": duplicateReplies,
            "unknown_replies": unknownReplies, "missing_replies": missing, "sessions": sessions,
            "events_received": counts.eventsIn, "outcomes": counts.outcomes, "drops": counts.drops,
            "dead_letters": counts.deadLetters, "timed_out": timedOut,
        ]
        if let failure { out["failure"] = failure }
        if let cpu {
            out["cpu_seconds"] = cpu.seconds
            out["cpu_scope"] = cpu.scope
            out["cpu_seconds_per_1000_answered"] = cpuPerThousandAnswered
            out["cpu_seconds_per_1000_events"] = cpuPerThousandEvents
        }
        return out
    }
}
