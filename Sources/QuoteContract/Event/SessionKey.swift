/// A checkout session's id as the sequence check tells sessions apart: as text, so that ids that
/// are canonically equivalent Unicode are one session (as `String` compares them), and as the
/// event spelt it, for the records written under it (its state record's key, the reply's id).
///
/// An id of at most `inlineCapacity` ASCII bytes (a gateway's UUID) is held in the key itself:
/// made from the event's bytes without an allocation, compared as five words and hashed as its
/// bytes. A superseded event needs no more of its session than this, and a `String` made for it
/// (an allocation, a validation and a free) was the biggest single cost of reading it. Any other
/// id is held as text, identified by its canonical composition (NFC, as the standard library
/// computes it for `String`'s own comparison).
public struct SessionKey: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The longest id held inline.
    public static let inlineCapacity = 40

    /// The identifying bytes of an inline id, in memory order, zero past its end.
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    /// The inline id's length, or `outOfLine`.
    private var count: UInt8 = 0
    /// The id as spelt where that is not the inline bytes (non-ASCII, or longer), and for an
    /// out-of-line id what identifies it.
    private var spelt: Spelling?

    private static let outOfLine: UInt8 = .max

    private final class Spelling: Sendable {
        let text: String
        /// The canonical (NFC) UTF-8 of an out-of-line id; empty for one identified inline.
        let identity: [UInt8]
        init(text: String, identity: [UInt8]) { (self.text, self.identity) = (text, identity) }
    }

    /// The key of `text`.
    public init(_ text: String) {
        if let key = text.utf8.withContiguousStorageIfAvailable({ SessionKey(asciiIfSo: $0, text: text) }) ?? nil {
            self = key
            return
        }
        // Non-ASCII: identified by its canonical composition, which may even be ASCII (U+212A
        // KELVIN SIGN is "K"); kept as spelt.
        var canonical: [UInt8] = []
        text._withNFCCodeUnits { canonical.append($0) }
        if canonical.count <= Self.inlineCapacity, !canonical.contains(where: { $0 >= 0x80 }) {
            self = canonical.withUnsafeBufferPointer { SessionKey(inlineASCII: $0) }
            spelt = Spelling(text: text, identity: [])
        } else {
            self.init(outOfLine: text, identity: canonical)
        }
    }

    /// The key of an id given as bytes (a record's key): its UTF-8 text, read leniently as
    /// `String(decoding:as:)` reads it.
    public init<Bytes: Collection<UInt8>>(utf8 bytes: Bytes) {
        if let key = bytes.withContiguousStorageIfAvailable({ SessionKey(asciiIfSo: $0, text: nil) }) ?? nil {
            self = key
        } else {
            self.init(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The key of an ASCII id (every byte below 0x80, so its own canonical form), `text` being
    /// its text where the caller has it; nil for any other id.
    init?(asciiIfSo bytes: UnsafeBufferPointer<UInt8>, text: String?) {
        guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        if bytes.count <= Self.inlineCapacity {
            self.init(inlineASCII: bytes)
        } else {
            self.init(outOfLine: text ?? String(decoding: bytes, as: UTF8.self), identity: Array(bytes))
        }
    }

    /// The key of an id of at most `inlineCapacity` bytes, every one of them ASCII (the caller
    /// knows: the scanner of a document whose strings are all printable ASCII).
    init(inlineASCII bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count <= Self.inlineCapacity)
        count = UInt8(truncatingIfNeeded: bytes.count)
        guard let base = bytes.baseAddress else { return }
        withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
    }

    private init(outOfLine text: String, identity: [UInt8]) {
        count = Self.outOfLine
        spelt = Spelling(text: text, identity: identity)
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// The id as the event spelt it.
    public var text: String {
        if let spelt { return spelt.text }
        return String(unsafeUninitializedCapacity: Int(count)) { copyInline(into: UnsafeMutableRawBufferPointer($0)) }
    }

    /// The id's UTF-8 as the event spelt it: the key of the records written for the session.
    public var utf8: [UInt8] {
        if let spelt { return Array(spelt.text.utf8) }
        return .written(capacity: Int(count)) { copyInline(into: UnsafeMutableRawBufferPointer($0)) }
    }

    public var description: String { text }

    /// Copies an inline id's bytes to the start of `out`; how many.
    private func copyInline(into out: UnsafeMutableRawBufferPointer) -> Int {
        withInlineBytes { out.copyMemory(from: $0) }
        return Int(count)
    }

    private func withInlineBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        withUnsafeBytes(of: words) { body(UnsafeRawBufferPointer(start: $0.baseAddress, count: Int(count))) }
    }

    public static func == (a: SessionKey, b: SessionKey) -> Bool {
        guard a.count == b.count, a.words.0 == b.words.0, a.words.1 == b.words.1, a.words.2 == b.words.2,
              a.words.3 == b.words.3, a.words.4 == b.words.4 else { return false }
        guard a.count == outOfLine else { return true }
        return a.spelt!.identity == b.spelt!.identity
    }

    public func hash(into hasher: inout Hasher) {
        guard count != Self.outOfLine else { return spelt!.identity.withUnsafeBytes { hasher.combine(bytes: $0) } }
        // The id's bytes in one call (one call a word cost more than the whole of a String's hash).
        withInlineBytes { hasher.combine(bytes: $0) }
    }
}
