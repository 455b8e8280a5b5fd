import Testing
@testable import ShippingRules

@Suite("Word table")
struct WordTableTests {
    @Test func everyFiledWordIsFoundWithItsValueAndNoOtherIs() {
        var table = WordTable<Int>()
        var reference: [UInt64: Int] = [:]
        // Packed codes as the zone index makes them (states, postal stems), and words that differ
        // only in their high or low bits, so that slots collide and the table grows many times.
        var words: [UInt64] = ["CA", "NY", "TX", "AK", "HI", "ON", "QC", "950", "9501", "10001", "M5V"].map(CodeList.word)
        for k in 0..<2_000 { words.append(UInt64(k + 1) << 40) }
        for k in 0..<2_000 { words.append(UInt64(k + 1)) }
        for (n, word) in words.enumerated() {
            table[word] = n
            reference[word] = n
        }
        #expect(table.count == reference.count)
        for (word, n) in reference { #expect(table[word] == n, "\(word)") }
        for missing in [CodeList.word("WA"), UInt64(2_001) << 40, 2_001, 0, .max] { #expect(table[missing] == nil, "\(missing)") }
    }

    @Test func aWordFiledAgainHasItsNewValue() {
        var table = WordTable<[Int]>()
        let word = CodeList.word("CA")
        table[word] = [1]
        table[word] = (table[word] ?? []) + [4]
        #expect(table[word] == [1, 4])
        #expect(table.count == 1)
        #expect(WordTable<Int>().isEmpty && WordTable<Int>()[word] == nil)
    }
}
