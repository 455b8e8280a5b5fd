/// Place codes (ISO countries, subdivisions) as a quote asks them. Each code of up to seven bytes
/// is packed with its length into one integer, so asking whether an address's code is listed
/// compares integers where a `Set<String>` hashes the code on every ask (about 250 instructions
/// a time, several times a quote). Longer codes, rare, are kept in a set. A class: rules hold it
/// in enum payloads and zones, and a copy is then one retain.
final class CodeList: Sendable {
    /// The codes as written (upper-cased), for checks and messages.
    let codes: Set<String>
    /// Sorted, for a binary search once the list is long.
    private let packed: [UInt64]
    private let long: Set<String>

    init(_ codes: Set<String>) {
        self.codes = codes
        var packed: [UInt64] = [], long: Set<String> = []
        for code in codes {
            let word = Self.word(code)
            if word != 0 { packed.append(word) } else { long.insert(code) }
        }
        self.packed = packed.sorted()
        self.long = long
    }

    /// `code`'s UTF-8 bytes and its length in one integer when it has 1 to 7 bytes (two codes get
    /// the same integer only when they are the same bytes); 0 for any other.
    static func word(_ code: String) -> UInt64 {
        // In place where the string allows (nearly always): a sequence walk costs several times more.
        if let word = code.utf8.withContiguousStorageIfAvailable(word(utf8:)) { return word }
        return Array(code.utf8).withUnsafeBufferPointer(word(utf8:))
    }

    /// The same for bytes: what the zone index and postal lists pack an address's code (or the
    /// first bytes of it) with.
    @inline(__always)
    static func word(utf8 bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard bytes.count > 0, bytes.count <= 7 else { return 0 }
        var word = UInt64(bytes.count) << 56
        for k in 0..<bytes.count { word |= UInt64(bytes[k]) << UInt64(8 * k) }
        return word
    }

    /// Whether `code` is present and listed; `word` is `CodeList.word(code)`. Taking the optional
    /// itself spares the caller a copy of the string (a retain and a release) to unwrap it.
    func holds(_ code: String?, word: UInt64) -> Bool {
        if word != 0 { return contains(word: word) }
        guard let code else { return false }
        return !long.isEmpty && long.contains(code)
    }

    /// Whether `code` is listed; `word` is `CodeList.word(code)`, worked out once per address.
    func contains(_ code: String, word: UInt64) -> Bool { holds(code, word: word) }

    private func contains(word: UInt64) -> Bool {
        if packed.count <= 16 { return packed.contains(word) }
        var low = 0, high = packed.count
        while low < high {
            let middle = (low + high) / 2
            if packed[middle] < word { low = middle + 1 } else { high = middle }
        }
        return low < packed.count && packed[low] == word
    }
}
