import ShippingRules

/// What the worker asks of the merchant's rules. A rule set answers it; so can a test double
/// that echoes, for measuring the Kafka path alone.
public protocol QuoteEngine: Sendable {
    /// Identifies the rules in force (`sha256:…`); every reply carries it.
    var version: String { get }
    func quote(_ request: QuoteRequest) -> QuoteOutcome
}
