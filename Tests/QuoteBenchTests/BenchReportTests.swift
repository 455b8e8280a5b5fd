import Benchmarking
import Foundation
@testable import QuoteBench
import Testing

/// The table and the JSON document for fixed figures: what a person and a script read.
@Suite struct BenchReportTests {
    private static func phase(_ system: String, rate: String, eventsPerSecond: Double, samples: [Double], stale: Int = 0,
                              missing: Int = 0, counts: ServiceCounts) -> PhaseResult {
        PhaseResult(name: "\(system)-\(rate == "max" ? "max" : rate.replacingOccurrences(of: "/s", with: "ps"))", system: system,
                    rate: rate, planned: 6, produced: 6, produceRate: 12_345.4, generatorWorstLag: 0, seconds: 0.5,
                    eventsPerSecond: eventsPerSecond, latency: LatencySummary(samples: samples), histogram: LogHistogram(samples: samples),
                    replies: 6, staleReplies: stale, duplicateReplies: 0, unknownReplies: 0, missing: missing, sessions: 2,
                    counts: counts, timedOut: false, failure: nil)
    }

    private static let echo = phase("echo", rate: "max", eventsPerSecond: 2_000, samples: [0.001, 0.002, 0.004],
                                    counts: ServiceCounts(eventsIn: 6, outcomes: ["echo": 6], finished: 6))
    private static let shipquote = phase("shipquote", rate: "max", eventsPerSecond: 1_500, samples: [0.002, 0.003, 0.0125],
                                         counts: ServiceCounts(eventsIn: 6, outcomes: ["update": 3, "keep": 1],
                                                               drops: ["superseded": 2], finished: 6))

    private static func report(_ phases: [PhaseResult]) -> BenchReport {
        var settings = BenchSettings()
        settings.sessions = 2
        settings.events = 6
        settings.partitions = 2
        let plan = LoadPlan(sessions: 2, events: [.init(session: 0, sequence: 1), .init(session: 0, sequence: 2),
                                                  .init(session: 1, sequence: 1), .init(session: 0, sequence: 3),
                                                  .init(session: 1, sequence: 2), .init(session: 1, sequence: 3)])
        return BenchReport(settings: settings, broker: "embedded broker", plan: plan,
                           probe: ProduceProbe.Result(events: 6, handedRate: 150_000.4, deliveredRate: 30_000.6, failed: 0),
                           phases: phases, comparison: BenchComparison(phases))
    }

    @Test func theTableShowsEveryPhaseItsOutcomesAndTheRatiosAgainstTheTargets() {
        #expect(Self.report([Self.echo, Self.shipquote]).table == """
        shipquote bench: embedded broker, 2 partitions, 1 worker(s), 2 sessions, 6 events (2 burst turns, fraction 0.1), rate max
        rules examples/rules/us-acme.yaml
        generator alone (produce-only, rate max): 30,001 events/s delivered, 150,000 events/s handed to the producer

        phase          rate  produced  events/s   gen/s   p50   p90   p99  p99.9   max  replies  missing  stale
        echo-max        max         6     2,000  12,345  2.00  4.00  4.00   4.00  4.00        6        0      0
        shipquote-max   max         6     1,500  12,345  3.00  12.5  12.5   12.5  12.5        6        0      0
        (latencies in ms: event produced by the bench → reply received by its reader; events/s end to end)

        echo-max: outcomes echo 6
        shipquote-max: outcomes keep 1, update 3; drops stale 0, duplicate 0, superseded 2, expired 0; dead letters 0

        throughput ratio (shipquote/echo, at max): 0.75×  (1,500 vs 2,000 events/s; target ≥ 0.7×: met)
        p50 ratio (shipquote/echo, at max): 1.50×  (3.00 vs 2.00 ms; target ≤ 1.1×, meant for a fixed rate: NOT met)
        p99 ratio (shipquote/echo, at max): 3.12×  (12.5 vs 4.00 ms; target ≤ 1.3×, meant for a fixed rate: NOT met)
        """)
    }

    @Test func theJSONDocumentCarriesSettingsPhasesComparisonAndGenerator() throws {
        let text = Self.report([Self.echo, Self.shipquote]).json
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(document.keys) == ["settings", "phases", "comparison", "generator"])
        let settings = try #require(document["settings"] as? [String: Any])
        #expect(Set(settings.keys) == ["broker", "partitions", "workers", "sessions", "events", "burst_fraction", "burst_turns", "rate",
                                       "compare", "processes", "rules", "max_batch", "kafka", "duration_limit_seconds", "rounds"])
        #expect(settings["burst_turns"] as? Int == 2)
        #expect(settings["rate"] as? String == "max")
        let phases = try #require(document["phases"] as? [[String: Any]])
        #expect(phases.count == 2)
        let shipquote = phases[1]
        #expect(Set(shipquote.keys) == ["name", "system", "rate", "round", "events_planned", "events_produced", "generator_produce_rate",
                                        "generator_worst_lag_seconds", "seconds", "events_per_second", "latency", "replies",
                                        "stale_replies", "duplicate_replies", "unknown_replies", "missing_replies", "sessions",
                                        "events_received", "outcomes", "drops", "dead_letters", "timed_out"])
        #expect(shipquote["name"] as? String == "shipquote-max")
        #expect(shipquote["generator_produce_rate"] as? Double == 12_345)
        #expect(shipquote["events_per_second"] as? Double == 1_500)
        #expect(shipquote["drops"] as? [String: Int] == ["superseded": 2])
        let latency = try #require(shipquote["latency"] as? [String: Any])
        #expect(latency["p50"] as? Double == 0.003)
        #expect(latency["max"] as? Double == 0.0125)
        #expect(latency["unit"] as? String == "seconds")
        let comparison = try #require(document["comparison"] as? [[String: Any]])
        #expect(comparison.map { $0["measure"] as? String } == ["throughput", "p50", "p99"])
        #expect(comparison[0]["ratio"] as? Double == 0.75)
        #expect(comparison[0]["target_min"] as? Double == 0.7)
        #expect(comparison[0]["meets_target"] as? Bool == true)
        #expect(comparison[2]["ratio"] as? Double == 3.125)
        #expect(comparison[2]["rate"] as? String == "max")
        #expect(comparison[2]["meets_target"] as? Bool == false)
        let generator = try #require(document["generator"] as? [String: Any])
        #expect(generator["produce_only_delivered_per_second"] as? Double == 30_001)
        #expect(generator["produce_only_handed_per_second"] as? Double == 150_000)
    }

    @Test func aPhaseWithoutEchoHasNoComparison() {
        let comparison = BenchComparison([Self.shipquote])
        #expect(comparison.ratios.isEmpty)
        #expect(comparison.json.isEmpty)
    }

    /// Issue 12's protocol: saturated, then fixed rates; CPU per 1,000 answered at every rate.
    @Test func fixedRatesCompareLatencyAndEveryRateComparesCPUPerAnsweredEvent() {
        func withCPU(_ p: PhaseResult, _ seconds: Double) -> PhaseResult {
            var p = p
            p.cpu = .init(seconds: seconds, scope: "the worker processes")
            return p
        }
        let echo1k = Self.phase("echo", rate: "1000/s", eventsPerSecond: 1_000, samples: [0.002, 0.002, 0.010], counts: ServiceCounts())
        let quote1k = Self.phase("shipquote", rate: "1000/s", eventsPerSecond: 1_000, samples: [0.002, 0.0021, 0.014], counts: ServiceCounts())
        let phases = [withCPU(Self.echo, 0.006), withCPU(Self.shipquote, 0.012), withCPU(echo1k, 0.003), withCPU(quote1k, 0.012)]
        let comparison = BenchComparison(phases)
        #expect(comparison.ratios.map { "\($0.kind.rawValue)@\($0.rate)" } == ["throughput@max", "cpu@max", "p50@1000/s", "p99@1000/s", "cpu@1000/s"])
        #expect(comparison.ratio(.cpu, at: "max")?.value == 2)           // 2 vs 1 s per 1,000 replies (6 replies each)
        #expect(comparison.ratio(.cpu, at: "max")?.met == true)
        #expect(comparison.ratio(.cpu, at: "1000/s")?.met == false)      // 4×
        #expect(comparison.ratio(.p50, at: "1000/s")?.met == true)       // 2.1 vs 2.0 ms
        #expect(comparison.ratio(.p99, at: "1000/s")?.met == false)      // 14 vs 10 ms
        let table = Self.report(phases).table
        #expect(table.contains("cpu s/1k"))
        #expect(table.contains("(cpu s/1k: CPU seconds per 1,000 replies received, during the measured phase, of the worker processes)"))
        #expect(table.contains("CPU per 1,000 answered ratio (shipquote/echo, at 1000/s): 4.00×  (2.00 vs 0.500 s; per 1,000 events produced 2.00 vs 0.500 s = 4.00×; target ≤ 3.0×: NOT met)"))
    }

    /// `--rounds`: each ratio pairs the echo and ShipQuote phases of one round, and the verdict is
    /// the median of the rounds' ratios (of the middle two for an even count).
    @Test func withSeveralRoundsEachRatioIsTheMedianOfItsRoundsPairs() throws {
        func round(_ n: Int, echo: Double, shipquote: Double) -> [PhaseResult] {
            var e = Self.phase("echo", rate: "1000/s", eventsPerSecond: 1_000, samples: [echo], counts: ServiceCounts())
            var q = Self.phase("shipquote", rate: "1000/s", eventsPerSecond: 1_000, samples: [shipquote], counts: ServiceCounts())
            e.round = n
            q.round = n
            return [e, q]
        }
        // Round 2's ShipQuote alone would look fast against round 1's echo: pairs stay within a round.
        let phases = round(1, echo: 0.004, shipquote: 0.0048) + round(2, echo: 0.0035, shipquote: 0.0037) + round(3, echo: 0.0040, shipquote: 0.0044)
        let comparison = BenchComparison(phases)
        let p50 = try #require(comparison.ratio(.p50, at: "1000/s"))
        #expect(p50.rounds.map { ($0.value * 1000).rounded() / 1000 } == [1.2, 1.057, 1.1])
        #expect(abs(p50.value - 1.1) < 1e-12)
        #expect(p50.met)
        #expect(p50.shipquote == 0.0044 && p50.echo == 0.004)    // each system's median
        #expect(comparison.lines[0] == "p50 ratio (shipquote/echo, at 1000/s): 1.10×  (median of 3 rounds: 1.20× (4.80 vs 4.00 ms), "
            + "1.06× (3.70 vs 3.50 ms), 1.10× (4.40 vs 4.00 ms); target ≤ 1.1×: met)")
        let json = try #require(comparison.json.first)
        let rounds = try #require(json["rounds"] as? [[String: Double]])
        #expect(rounds.map { $0["shipquote"] } == [0.0048, 0.0037, 0.0044])
        #expect(rounds.map { $0["echo"] } == [0.004, 0.0035, 0.004])
        // An even count: the middle two's mean.
        let four = BenchComparison(phases + round(4, echo: 0.001, shipquote: 0.003))
        #expect(abs((four.ratio(.p50, at: "1000/s")?.value ?? 0) - 1.15) < 1e-12)
        // A round without its echo phase pairs nothing.
        let lone = BenchComparison(phases + [round(5, echo: 0.001, shipquote: 0.009)[1]])
        #expect(lone.ratio(.p50, at: "1000/s")?.rounds.count == 3)
    }

    @Test func aPhaseIsNamedForItsRoundOnlyWhenThereAreSeveral() {
        #expect(BenchPhase.name(.echo, .fixed(1000), round: 1, of: 1) == "echo-1000ps")
        #expect(BenchPhase.name(.shipquote, .max, round: 1, of: 1) == "shipquote-max")
        #expect(BenchPhase.name(.echo, .fixed(1000), round: 1, of: 3) == "echo-1000ps-r1")
        #expect(BenchPhase.name(.shipquote, .max, round: 3, of: 3) == "shipquote-max-r3")
    }

    @Test func aStaleOrMissingReplyBreaksTheContract() {
        #expect(!Self.report([Self.echo, Self.shipquote]).contractBroken)
        let stale = Self.phase("shipquote", rate: "max", eventsPerSecond: 1, samples: [0.001], stale: 1, counts: ServiceCounts())
        let missing = Self.phase("shipquote", rate: "max", eventsPerSecond: 1, samples: [0.001], missing: 1, counts: ServiceCounts())
        #expect(Self.report([Self.echo, stale]).contractBroken)
        #expect(Self.report([Self.echo, missing]).contractBroken)
    }

    @Test func figuresAreWrittenForPeople() {
        #expect(BenchReport.count(1_234_567.5) == "1,234,568")
        #expect(BenchReport.count(999) == "999")
        #expect(BenchReport.ms(0.1234) == "123")
        #expect(BenchReport.ms(0.01234) == "12.3")
        #expect(BenchReport.ms(0.001234) == "1.23")
    }
}
