import Foundation

/// One golden case of a merchant's rule tests: a request and what its quote must show.
public struct RuleCase: Sendable {
    public let name: String
    /// Where the case is written in its file.
    public let mark: SourceMark
    public let request: QuoteRequest
    public let expectation: RuleExpectation
}

/// What a case checks; every part left out is not checked.
public struct RuleExpectation: Sendable {
    /// A case names the outcome as a reply does (`outcome: update`).
    public typealias Outcome = QuoteOutcome.Kind

    /// One expected method; nil fields are not checked.
    public struct Method: Sendable {
        public var id: String
        public var amount: ExactDecimal?
        public var deliveryFrom: CalendarDate?
        public var deliveryTo: CalendarDate?
        /// The grand total of this method's own breakdown.
        public var total: ExactDecimal?
        public var detail: String?
    }

    public var outcome: Outcome?
    /// The offered methods, all of them, in order.
    public var methods: [Method]?
    /// Top-level breakdown lines by id (`subtotal`, `tax`, `tax-included`, …) and their amounts.
    public var summary: [(id: String, amount: ExactDecimal)] = []
    /// Labels of top-level breakdown lines by id.
    public var labels: [(id: String, label: String)] = []
    /// The top-level grand total.
    public var total: ExactDecimal?
    /// Serviceability error codes, in order.
    public var errors: [String]?
    /// The rejection code.
    public var rejection: String?
}
