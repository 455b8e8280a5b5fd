import QuoteContract

/// A session's entry as the compacted state topic holds it, keyed by session id:
/// `{"sequence":7,"offset":1234,"seen_ms":1760097600123}`. A tombstone deletes the session.
enum StateRecord {
    static func encode(_ entry: SequenceGate.Entry) -> [UInt8] {
        var w = JSONWriter(capacity: 64)
        w.beginObject()
        w.field("sequence", entry.sequence)
        w.field("offset", entry.sourceOffset)
        w.field("seen_ms", entry.lastSeenMs)
        w.endObject()
        return w.bytes
    }

    /// nil for a value this version cannot read (it is skipped, not fatal: the state only
    /// sharpens the sequence check, and an unreadable entry costs at most one re-answer).
    static func decode(_ bytes: [UInt8]) -> SequenceGate.Entry? {
        guard case .object(let object)? = try? JSONReader(maxBytes: 4096, maxDepth: 2).read(bytes),
              case .number(let sequence)? = object["sequence"], let s = Int64(sequence),
              case .number(let offset)? = object["offset"], let o = Int64(offset),
              case .number(let seen)? = object["seen_ms"], let t = Int64(seen) else { return nil }
        return SequenceGate.Entry(sequence: s, sourceOffset: o, lastSeenMs: t)
    }
}
