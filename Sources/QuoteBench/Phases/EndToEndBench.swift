import Foundation
import Kafka
import ShippingRules

/// `shipquote bench [e2e]`: the generator alone, then the load through the echo worker and
/// through ShipQuote at each rate asked for (with `--compare`: both saturated, then both at half
/// the echo's saturated rate); with `--process` every worker is a process of its own. The caller prints the report and writes its chart.
public enum EndToEndBench {
    /// - Parameters:
    ///   - embeddedClients: client settings for the embedded broker at a bootstrap address (used without `--bootstrap-servers`).
    ///   - say: a line of progress for the person watching.
    public static func run(_ settings: BenchSettings, embeddedClients: (String) -> KafkaConfiguration,
                           say: (String) -> Void) throws -> BenchReport {
        let rules = try RuleLibrary.load(path: settings.rulesPath)
        let broker = try BenchBroker(settings: settings, embeddedClients: embeddedClients)
        let plan = LoadPlan(sessions: settings.sessions, events: settings.events, burstFraction: settings.burstFraction)
        let context = BenchPhase.Context(settings: settings, broker: broker, plan: plan, rules: rules,
                                         merchant: rules.ruleSets.count == 1 ? nil : rules.ruleSets.first?.merchant)

        say("generator alone: producing \(plan.events.count) events")
        let probe = try ProduceProbe.run(context)
        var phases: [PhaseResult] = []
        func measure(_ system: BenchPhase.System, _ rate: BenchSettings.Rate, round: Int = 1) throws {
            let name = BenchPhase.name(system, rate, round: round, of: settings.rounds)
            say("\(name): \(plan.events.count) events at rate \(rate)")
            phases.append(try BenchPhase(name: name, system: system, rate: rate, round: round).run(context))
        }
        if settings.compare {
            try measure(.echo, .max)
            try measure(.shipquote, .max)
            let half = max(1, Int(phases[0].eventsPerSecond / 2))
            try measure(.echo, .fixed(half))
            try measure(.shipquote, .fixed(half))
        } else {
            for round in 1...settings.rounds {
                for rate in settings.rates {
                    if settings.echo { try measure(.echo, rate, round: round) }
                    try measure(.shipquote, rate, round: round)
                }
            }
        }

        return BenchReport(settings: settings, broker: broker.isEmbedded ? "embedded broker" : broker.bootstrap,
                           plan: plan, probe: probe, phases: phases, comparison: BenchComparison(phases))
    }
}
