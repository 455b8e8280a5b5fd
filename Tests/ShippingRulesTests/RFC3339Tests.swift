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
