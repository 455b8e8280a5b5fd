import Foundation
import Testing
import ShippingRules

@Suite("RFC 3339 times")
struct RFC3339Tests {
    @Test("reads UTC, offsets and fractions exactly", arguments: [
        ("2026-10-10T12:00:00.123Z", Int64(1_791_633_600), Int32(123_000_000)),
        ("2026-10-10T12:00:25Z", 1_791_633_625, 0),
        ("2026-10-10T14:00:25+02:00", 1_791_633_625, 0),
        ("2026-10-10T06:30:25-05:30", 1_791_633_625, 0),
        ("2026-10-10T12:00:25-00:00", 1_791_633_625, 0),
        ("2026-10-10T12:00:00.123456789Z", 1_791_633_600, 123_456_789),
        ("2026-10-10T12:00:00.5Z", 1_791_633_600, 500_000_000),
        ("2024-02-29T23:59:59Z", 1_709_251_199, 0),
        ("1970-01-01T00:00:00Z", 0, 0),
        ("1969-12-31T23:59:59.999Z", -1, 999_000_000),
    ])
    func parsesExactly(text: String, seconds: Int64, nanos: Int32) throws {
        let parts = try #require(RFC3339.parseExact(text))
        #expect(parts.epochSeconds == seconds && parts.nanoseconds == nanos)
        #expect(RFC3339.parse(text) != nil)
    }

    @Test("refuses anything but the RFC 3339 form", arguments: [
        "", "2026-10-10", "2026-10-10 12:00:00Z", "2026-10-10t12:00:00Z", "2026-10-10T12:00:00z",
        "2026-10-10T12:00:00", "2026-10-10T12:00Z", "2026-10-10T12:00:00+0200", "2026-10-10T12:00:00+02",
        "2026-02-30T12:00:00Z", "2025-02-29T12:00:00Z", "2026-13-01T12:00:00Z", "2026-10-10T24:00:00Z",
        "2026-10-10T12:60:00Z", "2026-10-10T12:00:60Z", "2026-10-10T12:00:00.Z", "2026-10-10T12:00:00.1234567891Z",
        "2026-10-10T12:00:00Z ", " 2026-10-10T12:00:00Z", "2026-1-10T12:00:00Z", "+2026-10-10T12:00:00Z",
        "2026-10-10T12:00:00+24:00", "0000-01-01T00:00:00Z", "２026-10-10T12:00:00Z",
    ])
    func refusesOtherForms(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test("pads every field to its width, from year 1 to 9999")
    func padsEveryField() {
        func date(_ y: Int, _ m: Int, _ d: Int) -> String {
            var bytes: [UInt8] = []
            RFC3339.appendFullDate(CalendarDate(year: y, month: m, day: d)!, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(date(1, 1, 1) == "0001-01-01")
        #expect(date(9999, 12, 31) == "9999-12-31")
        #expect(date(2026, 3, 9) == "2026-03-09")
        #expect(date(980, 10, 20) == "0980-10-20")
        #expect(RFC3339.format(epochMilliseconds: 1_791_633_909_007) == "2026-10-10T12:05:09.007Z")
        #expect(RFC3339.format(epochMilliseconds: 1_791_676_799_999) == "2026-10-10T23:59:59.999Z")
        #expect(RFC3339.format(epochMilliseconds: 1_791_590_400_050) == "2026-10-10T00:00:00.050Z")
    }

    @Test("writes UTC with milliseconds and Z")
    func formats() {
        #expect(RFC3339.format(epochMilliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339.format(epochMilliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(RFC3339.format(epochMilliseconds: 1_791_633_600_123) == "2026-10-10T12:00:00.123Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_709_251_199)) == "2024-02-29T23:59:59.000Z")
        #expect(RFC3339.format(RFC3339.parse("2026-10-10T14:00:25.5+02:00")!) == "2026-10-10T12:00:25.500Z")
    }

    @Test("truncates below the millisecond")
    func truncatesFinerParts() {
        #expect(RFC3339.format(RFC3339.parse("2026-10-10T12:00:00.123999Z")!) == "2026-10-10T12:00:00.123Z")
        #expect(RFC3339.format(RFC3339.parse("1969-12-31T23:59:59.9999Z")!) == "1969-12-31T23:59:59.999Z")
    }

    @Test("every millisecond survives format and parse")
    func millisecondsRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let millis = Int64.random(in: -2_208_988_800_000...4_102_444_800_000, using: &generator)
            let text = RFC3339.format(epochMilliseconds: millis)
            let date = try #require(RFC3339.parse(text))
            #expect(RFC3339.epochMilliseconds(date) == millis)
            #expect(RFC3339.format(date) == text)
        }
    }
}

/// Rule case files were read by `ISO8601DateFormatter` before `RFC3339` served them too: every
/// form they accepted reads as the same instant.
@Suite("RFC 3339 times in rule case files")
struct RFC3339CaseFileTests {
    /// The fixed part is read a word at a time: every byte value at every one of its 19 places,
    /// against a reading of the same text byte by byte (digits where digits go, the separators
    /// where they go, then a real day and time), and the instant against days counted one year and
    /// month at a time (proleptic Gregorian, as RFC 3339 has it; Foundation's calendar turns Julian
    /// before 1582).
    @Test("reads or refuses every byte of the fixed part as a byte-by-byte reading does")
    func everyByteOfTheFixedPart() throws {
        for base in ["2024-02-29T23:59:59Z", "1999-12-31T00:00:00.5Z", "0001-01-01T00:00:00+01:00"] {
            for place in 0..<19 {
                for value in 0...255 {
                    var bytes = Array(base.utf8)
                    bytes[place] = UInt8(value)
                    let text = String(decoding: bytes, as: UTF8.self)
                    guard String(text.utf8) == text, Array(text.utf8) == bytes else { continue }   // not valid UTF-8 alone
                    let parsed = RFC3339.parseExact(text)
                    let expected = Self.fixedPart(bytes)
                    #expect((parsed != nil) == (expected != nil), "\(text)")
                    guard let parsed, let (y, mo, d, h, mi, sec) = expected else { continue }
                    var seconds = Int64(Self.daysSince1970(y, mo, d)) * 86_400 + Int64(h * 3600 + mi * 60 + sec)
                    if base.hasSuffix("+01:00") { seconds -= 3600 }
                    #expect(parsed.epochSeconds == seconds, "\(text)")
                }
            }
        }
    }

    /// Milliseconds and `Z` (what `format` writes) are read a word at a time too: every byte value
    /// at each of their five places either reads as the same form's digits or is refused.
    @Test("reads or refuses every byte of a millisecond tail as a byte-by-byte reading does")
    func everyByteOfTheMillisecondTail() throws {
        let base = "2026-10-10T12:00:00.123Z"
        for place in 19..<24 {
            for value in 0...255 {
                var bytes = Array(base.utf8)
                bytes[place] = UInt8(value)
                let text = String(decoding: bytes, as: UTF8.self)
                guard Array(text.utf8) == bytes else { continue }
                let digits = bytes[20..<23].allSatisfy { (0x30...0x39).contains($0) }
                let valid = bytes[19] == UInt8(ascii: ".") && digits && bytes[23] == UInt8(ascii: "Z")
                let parsed = RFC3339.parseExact(text)
                #expect((parsed != nil) == valid, "\(text)")
                guard let parsed, valid else { continue }
                let millis = bytes[20..<23].reduce(0) { $0 * 10 + Int($1 - 0x30) }
                #expect(parsed.epochSeconds == 1_791_633_600 && parsed.nanoseconds == Int32(millis * 1_000_000), "\(text)")
            }
        }
    }

    /// The fixed part byte by byte: nil unless digits and separators are where they belong and
    /// they name a real day (years 1-9999) and a time without a leap second.
    static func fixedPart(_ b: [UInt8]) -> (Int, Int, Int, Int, Int, Int)? {
        let separators: [Int: UInt8] = [4: 0x2D, 7: 0x2D, 10: 0x54, 13: 0x3A, 16: 0x3A]
        for k in 0..<19 {
            if let separator = separators[k] {
                guard b[k] == separator else { return nil }
            } else {
                guard (0x30...0x39).contains(b[k]) else { return nil }
            }
        }
        func number(_ r: Range<Int>) -> Int { r.reduce(0) { $0 * 10 + Int(b[$1] - 0x30) } }
        let (y, mo, d) = (number(0..<4), number(5..<7), number(8..<10))
        let (h, mi, s) = (number(11..<13), number(14..<16), number(17..<19))
        guard y >= 1, (1...12).contains(mo), (1...monthLengths(y)[mo - 1]).contains(d), h <= 23, mi <= 59, s <= 59 else { return nil }
        return (y, mo, d, h, mi, s)
    }

    static func monthLengths(_ y: Int) -> [Int] {
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    }

    static func daysSince1970(_ y: Int, _ mo: Int, _ d: Int) -> Int {
        let years = y >= 1970 ? (1970..<y).reduce(0) { $0 + monthLengths($1).reduce(0, +) }
                              : -(y..<1970).reduce(0) { $0 + monthLengths($1).reduce(0, +) }
        return years + monthLengths(y)[..<(mo - 1)].reduce(0, +) + d - 1
    }

    @Test("reads what the case files accepted, at the same instant", arguments: [
        "2026-10-10T12:00:00Z", "2026-10-10T12:00:00.123Z", "2026-10-10T05:00:00-07:00",
        "2026-10-10T05:00:00.123-07:00", "2026-10-10T17:30:00+05:30", "2026-12-31T23:59:59.999+00:00",
    ])
    func sameInstantAsBefore(text: String) throws {
        let whole = ISO8601DateFormatter()
        whole.formatOptions = [.withInternetDateTime]
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let before = try #require(whole.date(from: text) ?? fractional.date(from: text))
        let now = try #require(RFC3339.parse(text))
        #expect(RFC3339.epochMilliseconds(now) == RFC3339.epochMilliseconds(before))
    }

    @Test func aCaseReadsFractionsAndOffsets() throws {
        let file = try RuleCaseFile.load(yaml: """
        cases:
          - { name: a, currency: USD, now: "2026-10-10T12:00:00.123Z", expect: {} }
          - { name: b, currency: USD, now: "2026-10-10T05:00:00-07:00", expect: {} }

        """, fileName: "cases.yaml")
        #expect(file.cases.map { RFC3339.format($0.request.now) } == ["2026-10-10T12:00:00.123Z", "2026-10-10T12:00:00.000Z"])
    }
}
