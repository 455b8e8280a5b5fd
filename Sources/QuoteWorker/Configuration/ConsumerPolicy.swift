import Kafka

/// ShipQuote's rules for the consumer of address-change events. The Kafka face takes any
/// configuration; the worker brings its own policy and applies it where it builds its consumer.
public struct ConsumerPolicy: Sendable {
    /// Properties the worker relies on: an operator's other value is refused, not overridden.
    /// The worker commits exactly the work it has finished, so librdkafka must neither commit nor
    /// store offsets behind its back.
    public let fixed: [(property: String, value: String)]
    /// Properties set only where nobody chose a value.
    public let defaults: [(property: String, value: String)]

    /// The worker's policy.
    public static let shipQuote = ConsumerPolicy(
        fixed: [("enable.auto.commit", "false"), ("enable.auto.offset.store", "false")],
        // Eager assignors: cooperative-sticky loops and loses commits before librdkafka 2.6.
        // `earliest`: a new group answers what is waiting rather than skipping it.
        defaults: [("partition.assignment.strategy", "range"), ("auto.offset.reset", "earliest")])

    public init(fixed: [(property: String, value: String)], defaults: [(property: String, value: String)]) {
        self.fixed = fixed
        self.defaults = defaults
    }

    /// `configuration` with the fixed properties and the defaults set; throws when an operator
    /// chose a value the worker cannot run with.
    public func applied(to configuration: KafkaConfiguration) throws(ConsumerPolicyError) -> KafkaConfiguration {
        var config = configuration
        for (property, value) in fixed {
            if let chosen = config[property], chosen != value {
                throw .fixedPropertyOverridden(property: property, value: chosen, required: value)
            }
            config[property] = value
        }
        for (property, value) in defaults { config.setDefault(property, value) }
        if let strategy = config["partition.assignment.strategy"], strategy.contains("cooperative") {
            throw .cooperativeAssignor(strategy: strategy)
        }
        return config
    }
}

/// A consumer property the worker cannot run with. Each case names the property and what to do.
public enum ConsumerPolicyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The worker commits finished work itself; this property must keep its required value.
    case fixedPropertyOverridden(property: String, value: String, required: String)
    /// librdkafka 2.0.2's cooperative assignors loop on rebalances and lose commits.
    case cooperativeAssignor(strategy: String)

    public var description: String {
        switch self {
        case .fixedPropertyOverridden(let property, let value, let required):
            "librdkafka property \(property)=\(value): ShipQuote commits finished work itself and needs \(required); leave it unset"
        case .cooperativeAssignor(let strategy):
            "librdkafka property partition.assignment.strategy=\(strategy): cooperative assignors are unreliable in librdkafka 2.0.2; use range or roundrobin"
        }
    }
}
