/// The four topics of the wire contract (docs/contract.md); the defaults are its names, each can be overridden.
public struct Topics: Sendable, Hashable {
    /// Input: address-change events keyed by session id.
    public var addressChanged: String
    /// Output: quote replies keyed by session id.
    public var quoteReplies: String
    /// Events that could not be processed, bytes unchanged, headers say why.
    public var deadLetters: String
    /// Compacted: the sequence state that survives restarts and rebalances.
    public var quoteState: String

    public static let defaultAddressChanged = "shipping.address-changed"
    public static let defaultQuoteReplies = "shipping.quote-replies"
    public static let defaultDeadLetters = "shipping.quote-dlq"
    public static let defaultQuoteState = "shipping.quote-state"

    public init(addressChanged: String = Topics.defaultAddressChanged,
                quoteReplies: String = Topics.defaultQuoteReplies,
                deadLetters: String = Topics.defaultDeadLetters,
                quoteState: String = Topics.defaultQuoteState) {
        self.addressChanged = addressChanged
        self.quoteReplies = quoteReplies
        self.deadLetters = deadLetters
        self.quoteState = quoteState
    }

    public static let defaults = Topics()
}
