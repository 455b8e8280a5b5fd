/// A record's key as a map's key within a batch: hashed as bytes in one pass, compared as bytes.
struct RecordKey: Hashable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: RecordKey, b: RecordKey) -> Bool { a.bytes == b.bytes }

    /// Every byte below 0x80: then two keys are the same text exactly when they are the same bytes.
    var isASCII: Bool {
        bytes.withUnsafeBytes { raw in
            var high: UInt64 = 0, i = 0
            while i + 8 <= raw.count {
                high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i += 8
            }
            while i < raw.count {
                high |= UInt64(raw[i])
                i += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }
    }
}
