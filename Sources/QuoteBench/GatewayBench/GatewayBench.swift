import Kafka
import ShippingRules

/// `shipquote bench gateway`: the embedded broker, then at each rate the Kafka-only path and the
/// HTTP path with the very same calls (same plan, connections and rate), each with workers of its own.
public enum GatewayBench {
    public static func run(_ settings: GatewayBenchSettings, embeddedClients: (String) -> KafkaConfiguration,
                           say: (String) -> Void) throws -> GatewayBenchReport {
        let rules = try RuleLibrary.load(path: settings.rulesPath)
        let broker = try BenchBroker(settings: settings.brokerSettings, embeddedClients: embeddedClients)
        let plan = LoadPlan(sessions: settings.sessions, events: settings.requests, burstFraction: settings.burstFraction)
        let context = GatewayPhase.Context(settings: settings, broker: broker, plan: plan, rules: rules,
                                           merchant: rules.ruleSets.count == 1 ? nil : rules.ruleSets.first?.merchant)
        var phases: [GatewayPhaseResult] = []
        for rate in settings.rates {
            for path in [GatewayPhase.Path.kafka, .http] {
                let phase = GatewayPhase(path: path, rate: rate)
                say("\(phase.name): \(plan.events.count) calls at rate \(rate) on \(settings.connections) connections")
                phases.append(try phase.run(context))
            }
        }
        return GatewayBenchReport(settings: settings, plan: plan, phases: phases)
    }
}
