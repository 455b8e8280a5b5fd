import Benchmarking
import Foundation
import ShippingRules

/// `shipquote bench [e2e]`: the generator alone, then the load through the echo worker and
/// through ShipQuote (with `--compare`: both saturated, then both at half the echo's saturated
/// rate), then the table or JSON, and the latency histogram as SVG.
enum EndToEndBench {
    static func run(_ args: [String]) throws {
        let settings = try BenchSettings(args)
        let rules = try RuleLibrary.load(path: settings.rulesPath)
        let broker = try BenchBroker(settings: settings)
        let plan = LoadPlan(sessions: settings.sessions, events: settings.events, burstFraction: settings.burstFraction)
        let context = BenchPhase.Context(settings: settings, broker: broker, plan: plan, rules: rules,
                                         merchant: rules.ruleSets.count == 1 ? nil : rules.ruleSets.first?.merchant)
        let say: (String) -> Void = { if !settings.json { FileHandle.standardError.write(Data(("bench: " + $0 + "\n").utf8)) } }

        say("generator alone: producing \(plan.events.count) events")
        let probe = try ProduceProbe.run(context)
        var phases: [PhaseResult] = []
        func measure(_ system: BenchPhase.System, _ rate: BenchSettings.Rate) throws {
            let name = "\(system.rawValue)-\(rate == .max ? "max" : rate.description.replacingOccurrences(of: "/s", with: "ps"))"
            say("\(name): \(plan.events.count) events at rate \(rate)")
            phases.append(try BenchPhase(name: name, system: system, rate: rate).run(context))
        }
        if settings.compare {
            try measure(.echo, .max)
            try measure(.shipquote, .max)
            let half = max(1, Int(phases[0].eventsPerSecond / 2))
            try measure(.echo, .fixed(half))
            try measure(.shipquote, .fixed(half))
        } else {
            if settings.echo { try measure(.echo, settings.rate) }
            try measure(.shipquote, settings.rate)
        }

        let report = BenchReport(settings: settings, broker: broker.isEmbedded ? "embedded broker" : broker.bootstrap,
                                 plan: plan, probe: probe, phases: phases, comparison: BenchComparison(phases))
        Output.line(settings.json ? report.json : report.table)
        if let path = settings.svgPath {
            let fixed = phases.filter { $0.rate != "max" }
            let charted = fixed.isEmpty ? phases : fixed
            let chart = HistogramChart(title: "ShipQuote end-to-end latency, \(settings.workers) worker(s), \(settings.partitions) partitions",
                                       series: charted.map { .init(name: "\($0.name) (\($0.rate))", histogram: $0.histogram, summary: $0.latency) })
            try chart.svg().write(toFile: path, atomically: true, encoding: .utf8)
            say("latency histogram written to \(path)")
        }
        // Exit 1 when the contract broke: a stale reply published, or a latest event unanswered.
        if phases.contains(where: { $0.staleReplies > 0 || $0.missing > 0 || $0.failure != nil }) { exit(1) }
    }
}
