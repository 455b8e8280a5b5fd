/// A session's value on the compacted state topic (`shipping.quote-state`, keyed by session id):
/// `{"sequence":7,"offset":1234,"seen_ms":1760097600123}`. A tombstone deletes the session.
/// What a worker remembers of a session: 24 bytes besides its id.
public struct SessionState: Hashable, Sendable {
    /// The highest sequence taken.
    public let sequence: Int64
    /// The input offset of the record that carried it: a replay of that very record (after a
    /// crash lost its reply) is answered again, while a second record with the same sequence
    /// is a duplicate.
    public let sourceOffset: Int64
    /// When the session was last seen, in milliseconds since the epoch (for idle expiry).
    public let lastSeenMs: Int64

    public init(sequence: Int64, sourceOffset: Int64, lastSeenMs: Int64) {
        self.sequence = sequence
        self.sourceOffset = sourceOffset
        self.lastSeenMs = lastSeenMs
    }

    /// The record's value, members in this order: `sequence`, `offset`, `seen_ms`. Written in
    /// place (every answer writes one): three literals and three integers, at most 94 bytes.
    public func encode() -> [UInt8] {
        // Room for `writeDecimal`'s own bound (41 bytes) after the last literal.
        [UInt8].written(capacity: 128) { out in
            var k = 0
            func literal(_ text: StaticString) { k += JSONWriter.write(text, to: out.baseAddress! + k) }
            func integer(_ value: Int64) { k += JSONWriter.writeDecimal(value, fractionDigits: 0, to: out.baseAddress! + k) }
            literal("{\"sequence\":")
            integer(sequence)
            literal(",\"offset\":")
            integer(sourceOffset)
            literal(",\"seen_ms\":")
            integer(lastSeenMs)
            literal("}")
            return k
        }
    }

    /// nil for a value this version cannot read (a reader skips it, it is not fatal: the state
    /// only sharpens the sequence check, and an unreadable entry costs at most one re-answer).
    public static func decode(_ bytes: [UInt8]) -> SessionState? {
        guard case .object(let object)? = try? JSONReader(maxBytes: 4096, maxDepth: 2).read(bytes),
              case .number(let sequence)? = object["sequence"], let s = Int64(sequence),
              case .number(let offset)? = object["offset"], let o = Int64(offset),
              case .number(let seen)? = object["seen_ms"], let t = Int64(seen) else { return nil }
        return SessionState(sequence: s, sourceOffset: o, lastSeenMs: t)
    }
}
