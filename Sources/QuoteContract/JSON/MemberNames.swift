/// The member names an object may have, kept as the words a key is compared with: a key costs a
/// length test and a word compare or two, with no call to `memcmp` and no string made.
/// A class: each object read takes its names from a static, and a struct of three arrays was
/// copied out of it (three retains and three releases) for every object of every event.
final class MemberNames: Sendable {
    static let wordsPerName = 4
    let count: Int
    let lengths: [Int]
    /// `wordsPerName` words a name: its bytes, the first lowest in the first word, zero past its end.
    let words: [UInt64]
    /// For each word, the bits of the bytes the name has there (what a key's loaded word is masked with).
    let masks: [UInt64]

    /// At most 64 names (the cursor keeps which were seen in a word), each 1 to 32 bytes.
    init(_ names: [StaticString]) {
        precondition(names.count <= 64, "at most 64 member names")
        count = names.count
        lengths = names.map(\.utf8CodeUnitCount)
        var words = [UInt64](repeating: 0, count: names.count * Self.wordsPerName)
        var masks = words
        for (index, name) in names.enumerated() {
            precondition((1...8 * Self.wordsPerName).contains(name.utf8CodeUnitCount), "a member name of 1 to 32 bytes")
            for k in 0..<name.utf8CodeUnitCount {
                words[index * Self.wordsPerName + k / 8] |= UInt64(name.utf8Start[k]) << UInt64(8 * (k % 8))
                masks[index * Self.wordsPerName + k / 8] |= 0xFF << UInt64(8 * (k % 8))
            }
        }
        self.words = words
        self.masks = masks
    }
}
