/// A reply that breaks the contract, and where. Like event rejections, the message never
/// repeats a value.
public struct ReplyDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: RejectionCode
    /// A JSON path such as `update.shipping_methods[0].amount.value`.
    public var field: String?
    public var message: String

    public init(code: RejectionCode, field: String? = nil, message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
