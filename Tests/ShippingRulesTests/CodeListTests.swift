import Testing
@testable import ShippingRules

/// Country and state lists as a quote asks them: packed codes compared as integers, with the same
/// answers a set of strings gives.
@Suite struct CodeListTests {
    private func asks(_ list: CodeList, _ code: String) -> Bool { list.contains(code, word: CodeList.word(code)) }

    @Test func aCodeOfOneToSevenBytesPacksWithItsLengthAndNothingElseDoes() {
        #expect(CodeList.word("US") == 0x0200_0000_0000_5355)
        #expect(CodeList.word("A") == 0x0100_0000_0000_0041)
        #expect(CodeList.word("GB-SCT0") == 0x0730_5443_532D_4247)
        #expect(CodeList.word("") == 0)
        #expect(CodeList.word("ABCDEFGH") == 0)
        // A trailing NUL is a byte like any other: "US\0" is not "US".
        #expect(CodeList.word("US\u{0}") != CodeList.word("US"))
        #expect(CodeList.word("é") == 0x0200_0000_0000_A9C3)
    }

    @Test func aShortListAnswersAsItsSet() {
        let list = CodeList(["US", "CA", "PR"])
        #expect(asks(list, "US") && asks(list, "PR"))
        #expect(!asks(list, "MX") && !asks(list, "U") && !asks(list, "USA") && !asks(list, "us") && !asks(list, "US\u{0}"))
        #expect(list.codes == ["US", "CA", "PR"])
    }

    @Test func aLongListIsSearchedByHalvesAndAnswersAsItsSet() {
        let states = Set(["AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
                          "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND"])
        let list = CodeList(states)
        for code in states { #expect(asks(list, code), "\(code)") }
        for code in ["OH", "WY", "A", "AAA", "", "ZZ", "ALABAMA"] { #expect(!asks(list, code), "\(code)") }
    }

    @Test func codesLongerThanSevenBytesAreKeptInASet() {
        let list = CodeList(["US", "LONGCODE-1"])
        #expect(asks(list, "LONGCODE-1") && asks(list, "US"))
        #expect(!asks(list, "LONGCODE-2") && !asks(list, "LONGCODE"))
        #expect(!asks(CodeList(["US"]), "UNITED STATES"))
    }
}
