import ShippingRules

/// How many quotes came out as each kind of result.
public struct QuoteOutcomeCount: Equatable, Sendable {
    public var update = 0
    public var keep = 0
    public var unserviceable = 0
    public var rejected = 0

    public init(update: Int = 0, keep: Int = 0, unserviceable: Int = 0, rejected: Int = 0) {
        self.update = update
        self.keep = keep
        self.unserviceable = unserviceable
        self.rejected = rejected
    }

    public mutating func count(_ result: QuoteOutcome) {
        switch result {
        case .update: update += 1
        case .keep: keep += 1
        case .unserviceable: unserviceable += 1
        case .rejected: rejected += 1
        }
    }
}
