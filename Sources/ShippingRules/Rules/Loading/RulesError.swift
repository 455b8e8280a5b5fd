/// Why a rules file cannot be used, pointing at the place to fix:
/// `rules.yaml:12:14: shipping_methods[1].price.base: expected a decimal amount like 5.00, found "abc"`.
public struct RulesError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// The file could not be read from disk.
        case unreadable
        /// The text is not well-formed YAML.
        case syntax
        /// A value has the wrong shape or is out of range.
        case invalidValue
        /// A key the schema does not know (a typo, usually).
        case unknownKey
        /// A key the schema needs is absent.
        case missingKey
        /// Two entries share an id or a merchant.
        case duplicate
        /// A name refers to something not defined (a zone id, say).
        case unknownReference
    }

    public let kind: Kind
    /// The file name as given to the loader.
    public let file: String
    /// 1-based position, absent only when the file could not be read.
    public let mark: SourceMark?
    /// The path of the field, like `shipping_methods[1].price.base`; empty for the whole file.
    public let field: String
    /// What was expected and what was found.
    public let message: String

    public init(kind: Kind, file: String, mark: SourceMark?, field: String, message: String) {
        self.kind = kind
        self.file = file
        self.mark = mark
        self.field = field
        self.message = message
    }

    public var line: Int? { mark?.line }
    public var column: Int? { mark?.column }

    public var description: String {
        var text = file
        if let mark { text += ":\(mark.line):\(mark.column)" }
        text += ": "
        if !field.isEmpty { text += "\(field): " }
        return text + message
    }
}
