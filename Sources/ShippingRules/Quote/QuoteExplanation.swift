/// A quote with the steps that produced it: which serviceability rule, zones, tiers, tax layers
/// and rounding gave each line, and why a method was not offered. For `rules explain` and logs;
/// it holds no address, only rule names and amounts.
public struct QuoteExplanation: Sendable {
    public let result: QuoteOutcome
    public let trace: [String]

    public init(result: QuoteOutcome, trace: [String]) {
        self.result = result
        self.trace = trace
    }
}
