/// A record's key as a map's key within a batch: hashed as bytes in one pass, compared as bytes.
struct RecordKey: Hashable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: RecordKey, b: RecordKey) -> Bool { a.bytes == b.bytes }

    /// Every byte below 0x80: then two keys are the same text exactly when they are the same bytes.
    /// Asked once a session a batch, so a plain loop.
    var isASCII: Bool { !bytes.contains { $0 >= 0x80 } }
}
