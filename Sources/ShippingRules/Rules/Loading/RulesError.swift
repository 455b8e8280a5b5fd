/// Why a rules file cannot be used, pointing at the place to fix:
/// `rules.yaml:12:14: shipping_methods[1].price.base: expected a decimal amount like 5.00, found "abc"`.
/// A file with several independent errors is reported whole, as a compiler does: the error is the
/// first in file order, and `errors` lists every one (up to `reportLimit`; `omitted` counts the rest).
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
        /// The file is larger, deeper or expands to more values than a rules file may.
        case tooLarge
    }

    /// The most errors one file reports; the rest are counted in `omitted`.
    public static let reportLimit = 50

    public let kind: Kind
    /// The file name as given to the loader.
    public let file: String
    /// 1-based position, absent only when the file could not be read.
    public let mark: SourceMark?
    /// The path of the field, like `shipping_methods[1].price.base`; empty for the whole file.
    public let field: String
    /// What was expected and what was found.
    public let message: String
    /// The file's other errors after this one, in file order.
    public private(set) var following: [RulesError] = []
    /// Errors found beyond `reportLimit`, not listed.
    public private(set) var omitted = 0
    /// Set on an error that only follows from one already reported (a reference to a zone whose
    /// entry is broken, say): the loader drops it rather than report one mistake twice.
    var followsEarlier = false

    public init(kind: Kind, file: String, mark: SourceMark?, field: String, message: String) {
        self.kind = kind
        self.file = file
        self.mark = mark
        self.field = field
        self.message = message
    }

    /// The first of `errors` carrying the others; nil for none.
    init?(all errors: [RulesError], omitted: Int) {
        guard var first = errors.first else { return nil }
        first.following = Array(errors.dropFirst())
        first.omitted = omitted
        self = first
    }

    /// Every error of the file, this one first.
    public var errors: [RulesError] {
        var alone = self
        alone.following = []
        alone.omitted = 0
        return [alone] + following
    }

    public var line: Int? { mark?.line }
    public var column: Int? { mark?.column }

    /// One line per error, then `and N more errors` when some were not listed.
    public var description: String {
        var lines = errors.map(\.oneLine)
        if omitted > 0 { lines.append("and \(omitted) more error\(omitted == 1 ? "" : "s") (only the first \(Self.reportLimit) are listed)") }
        return lines.joined(separator: "\n")
    }

    /// This error alone, as one line.
    private var oneLine: String {
        var text = file
        if let mark { text += ":\(mark.line):\(mark.column)" }
        text += ": "
        if !field.isEmpty { text += "\(field): " }
        return text + message
    }
}
