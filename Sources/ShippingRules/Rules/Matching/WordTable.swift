/// A map from packed codes (`CodeList.word`, never zero) to values, which the zone index asks on
/// every quote: open addressing in a power-of-two table at most half full, keys spread by one
/// multiplication (Fibonacci hashing). A `Dictionary` hashes an integer with SipHash, some ninety
/// instructions a lookup, which guards a table whose keys an attacker picks; these keys come from
/// the merchant's rules, filed once a load, and a lookup of any key ends at the first empty slot.
struct WordTable<Value: Sendable>: Sendable {
    /// Zero where a slot is empty (no code packs to zero).
    private var keys: [UInt64]
    private var values: [Value?]
    private(set) var count = 0
    /// 64 minus the table's size as a power of two: a hash's top bits are its slot.
    private var shift: UInt64

    init() {
        keys = Array(repeating: 0, count: 8)
        values = Array(repeating: nil, count: 8)
        shift = 61
    }

    var isEmpty: Bool { count == 0 }

    /// The value filed for `word`, or nil; setting one files or replaces it (not nil: nothing is removed).
    subscript(word: UInt64) -> Value? {
        get {
            guard word != 0 else { return nil }
            var slot = slot(of: word)
            let mask = keys.count &- 1
            while true {
                let key = keys[slot]
                if key == word { return values[slot] }
                if key == 0 { return nil }
                slot = (slot &+ 1) & mask
            }
        }
        set {
            precondition(word != 0 && newValue != nil, "a packed code (not zero) and a value")
            if 2 * (count + 1) > keys.count { grow() }
            var slot = slot(of: word)
            let mask = keys.count &- 1
            while keys[slot] != 0 && keys[slot] != word { slot = (slot &+ 1) & mask }
            if keys[slot] == 0 { count += 1 }
            keys[slot] = word
            values[slot] = newValue
        }
    }

    @inline(__always)
    private func slot(of word: UInt64) -> Int { Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        keys = Array(repeating: 0, count: 2 * oldKeys.count)
        values = Array(repeating: nil, count: 2 * oldKeys.count)
        shift -= 1
        count = 0
        for i in oldKeys.indices where oldKeys[i] != 0 { self[oldKeys[i]] = oldValues[i] }
    }
}
