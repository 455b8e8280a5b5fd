import Benchmarking
import Foundation

/// The human table, the `--json` document and the latency chart of a run.
public struct BenchReport {
    let settings: BenchSettings
    let broker: String
    let plan: LoadPlan
    let probe: ProduceProbe.Result?
    let phases: [PhaseResult]
    let comparison: BenchComparison

    /// Whether the run broke the contract: a stale reply published, a latest event unanswered, or a service failed.
    public var contractBroken: Bool {
        phases.contains(where: { $0.staleReplies > 0 || $0.missing > 0 || $0.failure != nil })
    }

    /// The latency histogram as SVG: the fixed-rate phases, or all of them when none is.
    public var latencyChart: String {
        let fixed = phases.filter { $0.rate != "max" }
        let charted = fixed.isEmpty ? phases : fixed
        let chart = HistogramChart(title: "ShipQuote end-to-end latency, \(settings.workers) worker(s), \(settings.partitions) partitions",
                                   series: charted.map { .init(name: "\($0.name) (\($0.rate))", histogram: $0.histogram, summary: $0.latency) })
        return chart.svg()
    }

    public var table: String {
        var lines: [String] = []
        let rateText = settings.compare ? "protocol --compare"
            : "rate \(Self.rates(settings))" + (settings.rounds > 1 ? ", \(settings.rounds) rounds" : "")
        lines.append("shipquote bench: \(broker), \(settings.partitions) partitions, \(settings.workers) worker(s)\(settings.processes ? " as processes" : ""), "
            + "\(settings.sessions) sessions, \(plan.events.count) events (\(plan.burstTurns) burst turns, fraction \(settings.burstFraction)), \(rateText)")
        lines.append("rules \(settings.rulesPath)" + (settings.kafkaAssignments.isEmpty ? "" : "; -X " + settings.kafkaAssignments.joined(separator: " -X ")))
        if !settings.workerWrapper.isEmpty {
            lines.append("workers started through: \(settings.workerWrapper.joined(separator: " ")) (their figures are the wrapped workers', each with its wrapper's own CPU, not the product's)")
        }
        if let probe {
            lines.append("generator alone (produce-only, rate max): \(Self.count(probe.deliveredRate)) events/s delivered, "
                + "\(Self.count(probe.handedRate)) events/s handed to the producer" + (probe.failed > 0 ? ", \(probe.failed) failed" : ""))
        }
        lines.append("")
        let withCPU = phases.contains { $0.cpuPerThousandAnswered != nil }
        var header = ["phase", "rate", "produced", "events/s", "gen/s", "p50", "p90", "p99", "p99.9", "max", "replies", "missing", "stale"]
        if withCPU { header.append("cpu s/1k") }
        var rows = [header]
        for p in phases {
            var row = [p.name, p.rate, String(p.produced), Self.count(p.eventsPerSecond), Self.count(p.produceRate),
                       Self.ms(p.latency.p50), Self.ms(p.latency.p90), Self.ms(p.latency.p99), Self.ms(p.latency.p999), Self.ms(p.latency.max),
                       String(p.replies), String(p.missing), String(p.staleReplies)]
            if withCPU { row.append(p.cpuPerThousandAnswered.map(Self.seconds) ?? "-") }
            rows.append(row)
        }
        lines += Self.align(rows)
        lines.append("(latencies in ms: event produced by the bench → reply received by its reader; events/s end to end)")
        var scopes: [String] = []
        for p in phases { if let scope = p.cpu?.scope, !scopes.contains(scope) { scopes.append(scope) } }
        for scope in scopes {
            lines.append("(cpu s/1k: CPU seconds per 1,000 replies received, during the measured phase, of \(scope))")
        }
        lines.append("")
        for p in phases {
            let outcomes = p.counts.outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            var text = "\(p.name): outcomes \(outcomes.isEmpty ? "none" : outcomes)"
            if p.system == "shipquote" {
                let drops = ["stale", "duplicate", "superseded", "expired"].map { "\($0) \(p.counts.drops[$0] ?? 0)" }.joined(separator: ", ")
                text += "; drops \(drops); dead letters \(p.counts.deadLetters)"
            }
            if p.duplicateReplies > 0 { text += "; duplicate replies \(p.duplicateReplies)" }
            if p.unknownReplies > 0 { text += "; unrecognised replies \(p.unknownReplies)" }
            if p.generatorWorstLag > 0.01 { text += "; generator fell up to \(Self.ms(p.generatorWorstLag)) ms behind schedule" }
            if p.timedOut { text += "; TIMED OUT after --drain-timeout" }
            if let failure = p.failure { text += "; FAILED: \(failure)" }
            lines.append(text)
        }
        if !comparison.ratios.isEmpty {
            lines.append("")
            lines += comparison.lines
        }
        return lines.joined(separator: "\n")
    }

    public var json: String {
        var settingsJSON: [String: Any] = [
            "broker": broker, "partitions": settings.partitions, "workers": settings.workers, "sessions": settings.sessions,
            "events": plan.events.count, "burst_fraction": settings.burstFraction, "burst_turns": plan.burstTurns,
            "rate": Self.rates(settings), "compare": settings.compare, "processes": settings.processes, "rules": settings.rulesPath,
            "max_batch": settings.maxBatch, "kafka": settings.kafkaAssignments, "rounds": settings.rounds,
        ]
        settingsJSON["duration_limit_seconds"] = settings.duration
        if !settings.workerWrapper.isEmpty { settingsJSON["worker_wrapper"] = settings.workerWrapper }
        var out: [String: Any] = ["settings": settingsJSON, "phases": phases.map(\.json), "comparison": comparison.json]
        if let probe {
            out["generator"] = ["produce_only_delivered_per_second": probe.deliveredRate.rounded(),
                                "produce_only_handed_per_second": probe.handedRate.rounded(), "events": probe.events, "failed": probe.failed]
        }
        let data = try! JSONSerialization.data(withJSONObject: out, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    static func rates(_ settings: BenchSettings) -> String { settings.rates.map(\.description).joined(separator: ",") }

    /// CPU seconds with three significant-ish digits.
    static func seconds(_ s: Double) -> String {
        s >= 10 ? String(format: "%.1f", s) : s >= 1 ? String(format: "%.2f", s) : String(format: "%.3f", s)
    }

    static func ms(_ seconds: Double) -> String {
        let ms = seconds * 1000
        return ms >= 100 ? String(format: "%.0f", ms) : ms >= 10 ? String(format: "%.1f", ms) : String(format: "%.2f", ms)
    }

    static func count(_ v: Double) -> String {
        let n = Int(v.rounded())
        let digits = String(n)
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    static func align(_ rows: [[String]]) -> [String] {
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { c, cell in
                c == 0 ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
        }
    }
}
