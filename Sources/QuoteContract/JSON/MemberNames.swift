/// The member names an object may have, kept as the words a key is compared with: a key costs a
/// length test and a word compare or two, with no call to `memcmp` and no string made.
/// A class: each object read takes its names from a static, and a struct of three arrays was
/// copied out of it (three retains and three releases) for every object of every event.
///
/// The lengths, words and masks live in one buffer this object allocates and frees: the cursor
/// indexes them for every key of every event, and an array's bounds check and buffer load were
/// a tenth of a key's instructions. Every index the cursor uses is below `count` (a name) or
/// `count * wordsPerName` (a word), which `init` sized the buffer for.
final class MemberNames: @unchecked Sendable {
    static let wordsPerName = 4
    let count: Int
    /// `count` lengths, then `wordsPerName` words a name (its bytes, the first lowest in the
    /// first word, zero past its end), then as many masks (the bits of the bytes the name has in
    /// each word, what a key's loaded word is masked with). Written in `init` only.
    private let storage: UnsafeMutablePointer<UInt64>

    /// At most 64 names (the cursor keeps which were seen in a word), each 1 to 32 bytes.
    init(_ names: [StaticString]) {
        precondition(names.count <= 64, "at most 64 member names")
        count = names.count
        let words = names.count * Self.wordsPerName
        storage = .allocate(capacity: names.count + 2 * words)
        storage.initialize(repeating: 0, count: names.count + 2 * words)
        for (index, name) in names.enumerated() {
            precondition((1...8 * Self.wordsPerName).contains(name.utf8CodeUnitCount), "a member name of 1 to 32 bytes")
            storage[index] = UInt64(name.utf8CodeUnitCount)
            for k in 0..<name.utf8CodeUnitCount {
                let w = names.count + index * Self.wordsPerName + k / 8
                storage[w] |= UInt64(name.utf8Start[k]) << UInt64(8 * (k % 8))
                storage[w + words] |= 0xFF << UInt64(8 * (k % 8))
            }
        }
    }

    deinit { storage.deallocate() }

    /// The length of name `index` (below `count`).
    @inline(__always)
    func length(_ index: Int) -> Int { Int(truncatingIfNeeded: storage[index]) }

    /// Word `w` of the names (below `count * wordsPerName`).
    @inline(__always)
    func word(_ w: Int) -> UInt64 { storage[count &+ w] }

    /// The mask of word `w`.
    @inline(__always)
    func mask(_ w: Int) -> UInt64 { storage[count &+ count &* Self.wordsPerName &+ w] }
}
