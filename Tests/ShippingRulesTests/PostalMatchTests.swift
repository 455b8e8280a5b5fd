import Foundation
import Testing
@testable import ShippingRules

/// A compiled list answers exactly what asking its patterns one by one answers, for short lists
/// and long ones, ASCII codes and others.
@Suite("Postal code lists compiled to bytes")
struct PostalMatchTests {
    private static let patternTexts = [
        "95014", "941*", "945*..947*", "94022..94024", "SW1A 1*", "M5V", "^\\d{5}(-\\d{4})?$", "100-0001", "Ö12*", "Å10..Å20", "9",
    ]
    private static let codes = [
        "95014", "950140", "9501", "94105", "94599", "94600", "94799", "94800", "94022", "94023", "94025", "94024",
        "SW1A1AA", "SW1A", "SW1A2AA", "M5V", "M5V1A1", "M5", "1000001", "100-0001", "Ö123", "Ö1", "Å15", "Å21", "Å1",
        "9", "90", "", "95014-1234", "Z", "\u{FF19}5014", "é",
    ]

    private func agree(_ texts: [String]) throws {
        let patterns = try texts.map { try PostalPattern(parsing: $0) }
        let list = PostalMatch(patterns)
        for sent in Self.codes {
            let raw = PlaceName.code(sent.isEmpty ? " " : sent)
            let code = PostalPattern.normalized(raw)
            let expected = patterns.contains { $0.matches(normalized: code, raw: raw) }
            #expect(list.matches(normalized: code, raw: raw) == expected, "\(sent) against \(texts)")
        }
    }

    @Test func aShortListAnswersAsItsPatterns() throws {
        try agree(Self.patternTexts)
        for text in Self.patternTexts { try agree([text]) }
    }

    @Test func aLongListWithExactCodesAnswersAsItsPatterns() throws {
        try agree(Self.patternTexts + (0..<40).map { String(94100 + $0) } + ["ÄBC", "12345678", "SW1A 2AA"])
    }

    @Test func exactValuesForTheCommonShapes() throws {
        let list = PostalMatch(try ["940*", "945*..947*", "95014", "94022..94024"].map { try PostalPattern(parsing: $0) })
        let answers = ["94012", "94612", "94799", "94800", "95014", "950141", "94121", "94024", "9402"].map { list.matches(normalized: $0, raw: $0) }
        #expect(answers == [true, true, true, false, true, false, false, true, true])
    }
}
