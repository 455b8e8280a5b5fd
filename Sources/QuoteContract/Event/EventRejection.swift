import ShippingRules

/// An event that breaks the contract: what rule, which field, in words that never repeat the
/// offending value (values may be personal data). `sessionID` and `sequence` are filled whenever
/// they could be read validly on their own, so the worker can still publish a `rejected` reply.
public struct EventRejection: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: RejectionCode
    /// A JSON path such as `cart.items[3].quantity`; nil when the event as a whole is at fault.
    public var field: String?
    /// What was expected, naming the field; safe for logs, DLQ headers and the reply.
    public var message: String
    public var sessionID: String?
    public var sequence: Int64?

    public init(code: RejectionCode, field: String? = nil, message: String, sessionID: String? = nil, sequence: Int64? = nil) {
        self.code = code
        self.field = field
        self.message = message
        self.sessionID = sessionID
        self.sequence = sequence
    }

    /// Whether a `rejected` reply can be addressed: both session and sequence were readable.
    public var isAnswerable: Bool { sessionID != nil && sequence != nil }

    /// What a `rejected` reply carries: the code's raw value and the message.
    public var quoteRejection: QuoteRejection { QuoteRejection(code: code.rawValue, message: message) }

    /// `code: message`, the text of a `rejected` reply's `rejection`.
    public var description: String { quoteRejection.wireText }
}
