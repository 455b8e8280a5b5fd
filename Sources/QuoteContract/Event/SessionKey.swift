import Foundation

/// A checkout session's id as the sequence check tells sessions apart: as text, so that ids that
/// are canonically equivalent Unicode are one session (as `String` compares them), and as the
/// event spelt it, for the records written under it (its state record's key, the reply's id).
///
/// An id of at most `inlineCapacity` ASCII bytes (a gateway's UUID) is held in the key itself:
/// made from the event's bytes without an allocation, compared and hashed as five words. A
/// superseded event needs no more of its session than this, and a `String` made for it (an
/// allocation, a validation and a free) was the biggest single cost of reading it. Any other id
/// is held as text, with its canonical (NFC) bytes as what identifies it.
public struct SessionKey: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The longest id held inline.
    public static let inlineCapacity = 40

    /// The identifying bytes of an inline id, little-endian, zero past its end.
    private var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0, w4: UInt64 = 0
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
        var ascii = true
        for byte in text.utf8 where byte >= 0x80 { ascii = false; break }
        if ascii {
            let bytes = Array(text.utf8)
            if bytes.count <= Self.inlineCapacity {
                self = bytes.withUnsafeBufferPointer { SessionKey(inlineASCII: $0) }
            } else {
                self.init(outOfLine: text, identity: bytes)
            }
            return
        }
        // Non-ASCII: identified by its canonical composition, which may even be ASCII (U+212A
        // KELVIN SIGN is "K"); kept as spelt.
        let canonical = Array(text.precomposedStringWithCanonicalMapping.utf8)
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
        if bytes.count <= Self.inlineCapacity, !bytes.contains(where: { $0 >= 0x80 }),
           let key = bytes.withContiguousStorageIfAvailable({ SessionKey(inlineASCII: $0) }) {
            self = key
        } else {
            self.init(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The key of an id of at most `inlineCapacity` bytes, every one of them ASCII (the caller
    /// knows: the scanner of a document whose strings are all printable ASCII).
    init(inlineASCII bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count <= Self.inlineCapacity)
        count = UInt8(truncatingIfNeeded: bytes.count)
        guard let base = bytes.baseAddress else { return }
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
        (w0, w1, w2, w3, w4) = (UInt64(littleEndian: words.0), UInt64(littleEndian: words.1), UInt64(littleEndian: words.2),
                                UInt64(littleEndian: words.3), UInt64(littleEndian: words.4))
    }

    private init(outOfLine text: String, identity: [UInt8]) {
        count = Self.outOfLine
        spelt = Spelling(text: text, identity: identity)
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// The id as the event spelt it.
    public var text: String {
        if let spelt { return spelt.text }
        return withInlineBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The id's UTF-8 as the event spelt it: the key of the records written for the session.
    public var utf8: [UInt8] {
        if let spelt { return Array(spelt.text.utf8) }
        return withInlineBytes { Array($0) }
    }

    public var description: String { text }

    private func withInlineBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        var words = (w0.littleEndian, w1.littleEndian, w2.littleEndian, w3.littleEndian, w4.littleEndian)
        let n = Int(count)
        return withUnsafeBytes(of: &words) { body(UnsafeBufferPointer(start: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)) }
    }

    public static func == (a: SessionKey, b: SessionKey) -> Bool {
        guard a.count == b.count, a.w0 == b.w0, a.w1 == b.w1, a.w2 == b.w2, a.w3 == b.w3, a.w4 == b.w4 else { return false }
        guard a.count == outOfLine else { return true }
        return a.spelt!.identity == b.spelt!.identity
    }

    public func hash(into hasher: inout Hasher) {
        guard count != Self.outOfLine else { return spelt!.identity.withUnsafeBytes { hasher.combine(bytes: $0) } }
        // The id's bytes in one call (one per word cost more than the whole of a String's hash).
        withInlineBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
