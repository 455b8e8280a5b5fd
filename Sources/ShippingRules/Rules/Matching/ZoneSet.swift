/// A set of zone (or method) numbers as a bit set: membership is one shift and mask. Up to 64
/// numbers (nearly every rule set) live in one word and the set allocates nothing; `members`
/// lists them in ascending order.
struct ZoneSet: Sendable {
    private var small: UInt64 = 0
    /// Used instead of `small` when the capacity is over 64.
    private var words: [UInt64]

    init(capacity: Int) { words = capacity > 64 ? Array(repeating: 0, count: (capacity + 63) / 64) : [] }

    /// The numbers 0-63 whose bits are set.
    init(bits: UInt64) {
        small = bits
        words = []
    }

    mutating func insert(_ n: Int) {
        let bit: UInt64 = 1 << UInt64(n & 63)
        if words.isEmpty {
            precondition(n >= 0 && n < 64, "a zone number beyond the set's capacity")
            small |= bit
        } else {
            words[n >> 6] |= bit
        }
    }

    func contains(_ n: Int) -> Bool {
        guard n >= 0 else { return false }
        if words.isEmpty { return n < 64 && small & (1 << UInt64(n)) != 0 }
        return n >> 6 < words.count && words[n >> 6] & (1 << UInt64(n & 63)) != 0
    }

    /// Each member, ascending.
    func forEachMember(_ body: (Int) -> Void) {
        if words.isEmpty {
            var w = small
            while w != 0 { body(w.trailingZeroBitCount); w &= w - 1 }
            return
        }
        for (i, word) in words.enumerated() {
            var w = word
            while w != 0 { body(i << 6 | w.trailingZeroBitCount); w &= w - 1 }
        }
    }

    /// The members, ascending.
    var members: [Int] {
        var result: [Int] = []
        forEachMember { result.append($0) }
        return result
    }
}
