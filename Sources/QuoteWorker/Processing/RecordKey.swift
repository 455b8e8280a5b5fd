/// A record's key as a map's key within a batch: hashed as bytes in one pass, compared as bytes.
struct RecordKey: Hashable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: RecordKey, b: RecordKey) -> Bool { a.bytes == b.bytes }
}
