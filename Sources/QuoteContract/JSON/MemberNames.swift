/// The member names an object may have, kept as the words a key is compared with: a key costs a
/// length test and a word compare or two, with no call to `memcmp` and no string made.
///
/// Each name is kept with the closing quote and the colon after it, as compact JSON has them: the
/// expected key of a compact document is then one masked compare, name, quote and colon at once.
///
/// The lengths, words and masks live in one buffer that `init` allocates: the cursor indexes them
/// for every key of every event, and an array's bounds check and buffer load were a tenth of a
/// key's instructions. Every index the cursor uses is below `count` (a name) or `count *
/// wordsPerName` (a word), which `init` sized the buffer for.
///
/// Plain data (a count and a pointer), made only as a reader's `static let` and kept for the life
/// of the process, its buffer never freed: as a class (which freed it on `deinit`), each object
/// read retained and released the names, two atomic operations per object of every event.
struct MemberNames: @unchecked Sendable {
    static let wordsPerName = 4
    let count: Int
    /// `count` lengths, then `wordsPerName` words a name (its bytes then `":`, the first lowest
    /// in the first word, zero past their end), then as many masks of the name's bytes, then as
    /// many of the name's, quote's and colon's (what a key's loaded word is masked with). Written
    /// in `init` only.
    private let storage: UnsafeMutablePointer<UInt64>

    /// At most 64 names (the cursor keeps which were seen in a word), each 1 to 30 bytes.
    init(_ names: [StaticString]) {
        precondition(names.count <= 64, "at most 64 member names")
        count = names.count
        let words = names.count * Self.wordsPerName
        storage = .allocate(capacity: names.count + 3 * words)
        storage.initialize(repeating: 0, count: names.count + 3 * words)
        for (index, name) in names.enumerated() {
            let n = name.utf8CodeUnitCount
            precondition((1...8 * Self.wordsPerName - 2).contains(n), "a member name of 1 to 30 bytes")
            storage[index] = UInt64(n)
            for k in 0..<(n + 2) {
                let w = names.count + index * Self.wordsPerName + k / 8
                let byte = k < n ? name.utf8Start[k] : k == n ? UInt8(ascii: "\"") : UInt8(ascii: ":")
                storage[w] |= UInt64(byte) << UInt64(8 * (k % 8))
                if k < n { storage[w + words] |= 0xFF << UInt64(8 * (k % 8)) }
                storage[w + 2 * words] |= 0xFF << UInt64(8 * (k % 8))
            }
        }
    }

    /// The length of name `index` (below `count`).
    @inline(__always)
    func length(_ index: Int) -> Int { Int(truncatingIfNeeded: storage[index]) }

    /// Word `w` of the names with their `":` (below `count * wordsPerName`).
    @inline(__always)
    func word(_ w: Int) -> UInt64 { storage[count &+ w] }

    /// The mask of word `w` that keeps the name's bytes alone.
    @inline(__always)
    func mask(_ w: Int) -> UInt64 { storage[count &+ count &* Self.wordsPerName &+ w] }

    /// The mask of word `w` that keeps the name's bytes, its closing quote and the colon.
    @inline(__always)
    func maskWithColon(_ w: Int) -> UInt64 { storage[count &+ 2 &* count &* Self.wordsPerName &+ w] }
}
