/// Why a byte sequence is not acceptable JSON, and where (a byte offset into the input).
/// Descriptions never quote the input: it may hold personal data.
public struct JSONReadError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// Longer than the reader's byte limit (checked before parsing).
        case tooLarge = "too_large"
        /// Containers nested deeper than the reader's depth limit.
        case tooDeep = "too_deep"
        case unexpectedEnd = "unexpected_end"
        case unexpectedByte = "unexpected_byte"
        /// Not the JSON number grammar: leading zeros, a bare `.`, `+1`, a missing exponent.
        case invalidNumber = "invalid_number"
        case invalidEscape = "invalid_escape"
        case invalidUTF8 = "invalid_utf8"
        /// A raw byte below 0x20 inside a string (JSON wants it escaped).
        case controlCharacter = "control_character"
        /// A `\uD800`–`\uDFFF` escape without its pair.
        case loneSurrogate = "lone_surrogate"
        case duplicateKey = "duplicate_key"
        /// Something other than whitespace after the document.
        case trailingData = "trailing_data"
    }

    public let kind: Kind
    /// Byte offset of the offending input (for `tooLarge`, the limit).
    public let offset: Int

    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        let what: String
        switch kind {
        case .tooLarge: what = "the document is larger than the limit of \(offset) bytes"
        case .tooDeep: what = "arrays and objects are nested deeper than the limit"
        case .unexpectedEnd: what = "the document ends early"
        case .unexpectedByte: what = "unexpected character"
        case .invalidNumber: what = "a number does not follow the JSON grammar"
        case .invalidEscape: what = "invalid escape sequence in a string"
        case .invalidUTF8: what = "invalid UTF-8"
        case .controlCharacter: what = "unescaped control character in a string"
        case .loneSurrogate: what = "a \\u escape names half of a surrogate pair"
        case .duplicateKey: what = "an object has the same key twice"
        case .trailingData: what = "data after the end of the document"
        }
        return kind == .tooLarge ? what : "\(what) at byte \(offset)"
    }
}
