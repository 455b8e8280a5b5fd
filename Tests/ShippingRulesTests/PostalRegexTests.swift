import Foundation
import Testing
@testable import ShippingRules

@Suite("Postal-code regular expressions matched without Foundation")
struct PostalRegexTests {
    /// The byte program's answer and Foundation's, for one expression and one code.
    private func answers(_ pattern: String, _ code: String) -> (program: Bool?, foundation: Bool) {
        let program = ByteProgram(compiling: pattern)
        let re = try! NSRegularExpression(pattern: pattern)
        return (program?.matches(code), re.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil)
    }

    static let examplePatterns = [
        #"^\d{5}(-\d{4})?$"#, #"^\d{3}-?\d{4}$"#, #"^[A-Z]{1,2}[0-9][A-Z0-9]?( ?[0-9][A-Z]{2})?$"#,
        #"^\d{3}"#, #"^(?:SW)\d+"#, #"^[A-Z]\d[A-Z] ?\d[A-Z]\d$"#, #"^9[0-6]\d*$"#, #"^(\d{2}){2,}$"#, #"^(A?)*B$"#,
        #"^\d{2}\.\d$"#, #"^[-A]{2}$"#, #"^[A-]+$"#,
        #"^(?:SW|S|EC)\d[A-Z\d]?$"#, #"^(?:(?:A|AB)|)B?$"#, #"^(?:A|AB)(?:B|)$"#, #"^(?:\d{5}|[A-Z]{2}\d)(?:-\d{4})?$"#,
    ]
    static let codes = [
        "95014", "95014-1234", "95014-12", "9501", "950141", "123-4567", "1234567", "12-34567", "SW1A 1AA", "SW1A1AA", "SW1A",
        "EC1", "W1", "M5V 3L9", "M5V3L9", "A1", "", " ", "960", "97", "9", "1234", "123456", "AAAB", "B", "AB", "12.3", "12X3",
        "-A", "A-A", "--", "sw1a",
    ]

    @Test func theExamplesRulesExpressionsCompileToBytePrograms() {
        for pattern in Self.examplePatterns { #expect(ByteProgram(compiling: pattern) != nil, "\(pattern)") }
    }

    @Test func everyAnswerIsFoundationsOnPrintableASCIICodes() {
        for pattern in Self.examplePatterns {
            for code in Self.codes {
                let (program, foundation) = answers(pattern, code)
                #expect(program == foundation, "\(pattern) on \"\(code)\"")
            }
        }
    }

    /// Google's formats as the reference data writes them, wrapped as `PostalCodeFormat` wraps them:
    /// those inside the subset (the UK's, with its postcode areas as alternatives) answer as Foundation does.
    @Test func theReferenceDataFormatsAnswerAsFoundationDoes() {
        var compiled = 0
        for line in PostalCodeFormats.countries.split(separator: "\n") {
            let source = "^(?:" + line.drop { $0 != "=" }.dropFirst() + ")$"
            guard ByteProgram(compiling: source) != nil else { continue }
            compiled += 1
            for code in Self.codes + ["SW1A 0AA", "GIR 0AA", "BFPO 61", "QQ1 1AA", "M5V 0A0", "1012 AB", "10115", "900-0001"] {
                let (program, foundation) = answers(source, code)
                #expect(program == foundation, "\(source) on \"\(code)\"")
            }
        }
        #expect(compiled >= 170)
        for country in ["GB", "US", "CA", "JP", "DE", "FR", "NL", "IE", "KW"] {
            let format = PostalCodeFormat.countries[country]
            #expect(format?.regex.program != nil, "\(country)")
        }
        #expect(ByteProgram(compiling: #"^(?:GIR ?0AA|(?:(?:AB|SW)(?:\d[\dA-Z]? ?\d[ABD-HJLN-UW-Z]{2}))|BFPO ?\d{1,4})$"#) != nil)
    }

    /// Programs of up to 64 instructions run as sets of states; both ways answer alike on every
    /// example and on every code of up to four bytes over an alphabet that exercises them.
    @Test func theStateSetsAnswerAsTheBacktrackingDoes() {
        let alphabet = Array("09AB -Z.".utf8)
        var codes: [[UInt8]] = [[]]
        var layer: [[UInt8]] = [[]]
        for _ in 0..<4 {
            layer = layer.flatMap { code in alphabet.map { code + [$0] } }
            codes += layer
        }
        codes += Self.codes.map { Array($0.utf8) }
        var compared = 0
        for pattern in Self.examplePatterns {
            let program = ByteProgram(compiling: pattern)!
            #expect(program.states != nil, "\(pattern)")
            for code in codes {
                code.withUnsafeBufferPointer { bytes in
                    #expect(program.matches(bytes) == program.backtracking(bytes), "\(pattern) on \"\(String(decoding: code, as: UTF8.self))\"")
                }
                compared += 1
            }
        }
        #expect(compared == Self.examplePatterns.count * (1 + 8 + 64 + 512 + 4_096 + Self.codes.count))
        // A byte from 128 up is in no set, either way (the callers hand over printable ASCII only).
        let zip = ByteProgram(compiling: #"^\d{5}$"#)!
        for code in [[0x39, 0x35, 0x30, 0x31, 0xB4], [0xB9, 0x35, 0x30, 0x31, 0x34], [0xC1]] as [[UInt8]] {
            code.withUnsafeBufferPointer { bytes in #expect(!zip.matches(bytes) && !zip.backtracking(bytes)) }
        }
        // The UK's format, its postcode areas as alternatives, is beyond 64 instructions: backtracking alone.
        let uk = PostalCodeFormat.countries["GB"]?.regex.program
        #expect(uk != nil && uk?.states == nil)
    }

    @Test func exactAnswersForTheUSZip() {
        let zip = ByteProgram(compiling: #"^\d{5}(-\d{4})?$"#)!
        #expect(zip.matches("95014") == true)
        #expect(zip.matches("95014-1234") == true)
        #expect(zip.matches("95014-123") == false)
        #expect(zip.matches("9501") == false)
        #expect(zip.matches("95014 ") == false)
    }

    @Test func codesOutsidePrintableASCIIAreLeftToFoundation() {
        let zip = ByteProgram(compiling: #"^\d{5}$"#)!
        #expect(zip.matches("٩٥٠١٤") == nil)           // Arabic-Indic digits: \d matches them in ICU
        #expect(zip.matches("95014\n") == nil)         // ICU's $ matches before a final line break
        #expect(zip.matches(String(repeating: "9", count: 100)) == nil)
        // Through the pattern, Foundation answers them as before.
        let pattern = try! PostalPattern(parsing: #"^\d{5}$"#)
        for code in ["٩٥٠١٤", "95014\n", "95014\n1", "9501\u{2028}"] {
            #expect(pattern.matches(normalized: "", raw: code) == answers(#"^\d{5}$"#, code).foundation, "\(code.debugDescription)")
        }
    }

    @Test func expressionsOutsideTheSubsetAreLeftToFoundation() {
        for pattern in [#"^\w+$"#, #"^A|B$"#, #"^[^A]$"#, #"^\d{2,}?$"#, #"^A++$"#, #"^(?i)a$"#, #"^\s*$"#, #"^.$"#, "^A$B",
                        #"^(A$)"#, #"^[[:alpha:]]$"#, #"^A{3,1}$"#, #"^(A{100}){100}$"#, #"^\1$"#] {
            #expect(ByteProgram(compiling: pattern) == nil, "\(pattern)")
        }
        // And still match as Foundation says.
        let word = try! PostalPattern(parsing: #"^\w+$"#)
        #expect(word.matches(normalized: "AB1", raw: "AB1"))
        #expect(!word.matches(normalized: "A B", raw: "A B"))
    }

    @Test func anEmptyLoopTurnNeitherHangsNorMatches() {
        let program = ByteProgram(compiling: #"^(A?)*B$"#)!
        #expect(program.matches(String(repeating: "A", count: 60) + "B") == true)
        #expect(program.matches(String(repeating: "A", count: 60) + "C") == false)
    }
}

@Suite("Warehouse offsets from a table made at load")
struct ZoneOffsetsTests {
    private let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

    @Test func theTableAnswersWhatTheTimeZoneAnswersEveryHalfHourOfAYear() {
        for name in ["America/Los_Angeles", "Europe/London", "Australia/Lord_Howe", "Asia/Kolkata", "Europe/Moscow", "America/Sao_Paulo"] {
            let zone = TimeZone(identifier: name)!
            let table = ZoneOffsets(zone)
            // 2010-2016 covers Moscow's two changes of standard time (2011, 2014) and Brazil's DST.
            var second: Int64 = 1_262_304_000
            while second < 1_483_228_800 {
                let now = Date(timeIntervalSince1970: Double(second))
                if table.secondsFromGMT(for: now) != zone.secondsFromGMT(for: now) {
                    Issue.record("\(name) at \(second)")
                    break
                }
                second += 1_800
            }
        }
    }

    @Test func theTableAnswersWhatTheTimeZoneAnswersAroundEveryTransitionOfItsCentury() {
        for name in ["America/Los_Angeles", "Europe/London", "Australia/Lord_Howe", "Africa/Casablanca", "America/Sao_Paulo", "Pacific/Apia"] {
            let zone = TimeZone(identifier: name)!
            let table = ZoneOffsets(zone)
            var cursor = Date(timeIntervalSince1970: Double(ZoneOffsets.defaultRange.lowerBound))
            var mismatches = 0, transitions = 0
            while let next = zone.nextDaylightSavingTimeTransition(after: cursor),
                  next.timeIntervalSince1970 < Double(ZoneOffsets.defaultRange.upperBound) {
                transitions += 1
                for delta in [-86_400.0, -1, -0.5, 0, 0.5, 1, 86_400] {
                    let instant = next.addingTimeInterval(delta)
                    if instant.timeIntervalSince1970 < Double(ZoneOffsets.defaultRange.upperBound),
                       table.secondsFromGMT(for: instant) != zone.secondsFromGMT(for: instant) { mismatches += 1 }
                }
                cursor = next
            }
            #expect(transitions > 0, "\(name)")
            #expect(mismatches == 0, "\(name): \(mismatches) of \(transitions) transitions")
        }
    }

    @Test func losAngelesChangesAtTheExactSecondOnItsDaylightSavingDays() {
        let table = ZoneOffsets(losAngeles)
        // 2026-03-08 10:00:00 UTC is 02:00 PST, which becomes 03:00 PDT.
        let spring = Date(timeIntervalSince1970: 1_772_964_000)
        #expect(table.secondsFromGMT(for: spring.addingTimeInterval(-0.001)) == -8 * 3600)
        #expect(table.secondsFromGMT(for: spring.addingTimeInterval(-1)) == -8 * 3600)
        #expect(table.secondsFromGMT(for: spring) == -7 * 3600)
        // 2026-11-01 09:00:00 UTC is 02:00 PDT, which becomes 01:00 PST.
        let fall = Date(timeIntervalSince1970: 1_793_523_600)
        #expect(table.secondsFromGMT(for: fall.addingTimeInterval(-1)) == -7 * 3600)
        #expect(table.secondsFromGMT(for: fall.addingTimeInterval(-0.5)) == -7 * 3600)
        #expect(table.secondsFromGMT(for: fall) == -8 * 3600)
        #expect(table.secondsFromGMT(for: fall.addingTimeInterval(0.5)) == -8 * 3600)
    }

    @Test func instantsOutsideTheTableAskTheTimeZone() {
        let table = ZoneOffsets(losAngeles, covering: 1_767_225_600..<1_798_761_600)   // 2026 only
        #expect(table.secondsFromGMT(for: Date(timeIntervalSince1970: 1_752_000_000)) == -7 * 3600)   // July 2025
        #expect(table.secondsFromGMT(for: Date(timeIntervalSince1970: 1_800_000_000)) == -8 * 3600)   // January 2027
        #expect(table.secondsFromGMT(for: Date(timeIntervalSince1970: -1_000_000_000)) == losAngeles.secondsFromGMT(for: Date(timeIntervalSince1970: -1_000_000_000)))
    }

    @Test func theLocalDateOnDaylightSavingDaysIsTheWarehouses() {
        let calendar = DeliveryCalendar(warehouse: Warehouse(timeZone: losAngeles, cutoffMinutes: nil, businessDays: [1, 2, 3, 4, 5],
                                                             holidays: [], handlingDays: 0))
        func local(_ instant: String) -> String {
            let (date, minute) = calendar.localMoment(Fixture.instant(instant))
            return "\(date) \(minute / 60):\(minute % 60)"
        }
        #expect(local("2026-03-08T09:59:59Z") == "2026-03-08 1:59")     // PST
        #expect(local("2026-03-08T10:00:00Z") == "2026-03-08 3:0")      // PDT
        #expect(local("2026-03-09T06:59:00Z") == "2026-03-08 23:59")
        #expect(local("2026-11-01T08:59:00Z") == "2026-11-01 1:59")     // PDT
        #expect(local("2026-11-01T09:00:00Z") == "2026-11-01 1:0")      // PST, the hour again
        #expect(local("2026-11-02T07:59:00Z") == "2026-11-01 23:59")
        #expect(local("2026-11-02T08:00:00Z") == "2026-11-02 0:0")
    }

    @Test func holidaysAreFoundByBinarySearchWhateverTheirOrder() {
        let dates = ["2027-01-01", "2026-11-26", "2026-12-25", "2026-07-03"].map(Fixture.date)
        let warehouse = Warehouse(timeZone: losAngeles, cutoffMinutes: nil, businessDays: [1, 2, 3, 4, 5],
                                  holidays: Set(dates), handlingDays: 0)
        for date in dates { #expect(warehouse.isHoliday(date.daysSinceEpoch), "\(date)") }
        for other in ["2026-12-24", "2026-12-26", "2027-01-02", "2026-01-01", "2026-07-04"].map(Fixture.date) {
            #expect(!warehouse.isHoliday(other.daysSinceEpoch), "\(other)")
        }
        #expect(!Warehouse(timeZone: losAngeles, cutoffMinutes: nil, businessDays: [1], holidays: [], handlingDays: 0).isHoliday(0))
    }

    @Test func aReloadedRuleSetUsesItsOwnZone() throws {
        let head = "version: 1\npayee: Shop\ncurrencies: [USD]\n"
        let body = { (zone: String) in
            "warehouse: { time_zone: \(zone), cutoff: \"14:00\" }\nshipping_methods:\n  - { id: std, label: Standard, price: { base: 5.00 }, transit_days: 0 }\n"
        }
        // Monday 2026-11-02 21:30 UTC: 13:30 in Los Angeles (before the cutoff), 16:30 in New York (after it).
        func shipDay(_ rules: RuleSet) -> String {
            guard case .update(let update) = rules.quote(Fixture.request(selected: nil, at: "2026-11-02T21:30:00Z")),
                  let estimate = update.shippingMethods.first?.deliveryEstimate else { return "none" }
            return estimate.from.description
        }
        let west = try Fixture.rules(body("America/Los_Angeles"), head: head)
        let east = try Fixture.rules(body("America/New_York"), head: head)
        #expect(shipDay(west) == "2026-11-02")
        #expect(shipDay(east) == "2026-11-03")
        #expect(shipDay(west) == "2026-11-02")
    }
}

@Suite("Postal patterns, normalized codes and currencies by their letters")
struct ByteComparisonTests {
    /// What exact, prefix and range patterns answered before the byte path: String comparisons.
    private func stringAnswer(_ pattern: PostalPattern, _ code: String) -> Bool {
        switch pattern {
        case .exact(let value): return code == value
        case .prefix(let stem): return code.hasPrefix(stem)
        case .range(let lower, let upper):
            guard code.count >= lower.count else { return false }
            let head = String(code.prefix(lower.count))
            return lower <= head && head <= upper
        case .regex: return false
        }
    }

    @Test func exactPrefixAndRangePatternsAnswerAsStringComparisonsDid() throws {
        let patterns = ["95014", "941*", "94000..94999", "945*..947*", "SW1A*", "M5V", "Z*", "A0..A9", "É1*", "0..9"]
        let codes = ["95014", "950141", "9501", "94105", "94999", "95000", "94600", "9450", "SW1A1AA", "SW1", "M5V", "M5V3L9",
                     "ZZ", "A5", "A", "É10", "E10", "", "5", "10", "94A00", "9"]
        for text in patterns {
            let pattern = try PostalPattern(parsing: text)
            for code in codes {
                #expect(pattern.matches(normalized: code, raw: code) == stringAnswer(pattern, code), "\(text) on \(code)")
            }
        }
    }

    @Test func normalizedCodesAreUpperCasedWithoutSeparators() {
        #expect(PostalPattern.normalized("SW1A 1AA") == "SW1A1AA")
        #expect(PostalPattern.normalized("sw1a-1aa") == "SW1A1AA")
        #expect(PostalPattern.normalized("95014") == "95014")
        #expect(PostalPattern.normalized("\t9 5-0\n14 ") == "95014")
        #expect(PlaceName.fold("  San   Francisco ") == "san francisco")
        #expect(PlaceName.fold("CUPERTINO") == "cupertino")
        #expect(PlaceName.code("ca") == "CA")
        #expect(PlaceName.code("CA") == "CA")
        #expect(PlaceName.code(" ca ") == "CA")
    }

    @Test func currenciesAreFoundByTheirThreeCapitalLetters() {
        #expect(Currency(code: "USD")?.minorDigits == 2)
        #expect(Currency(code: "JPY")?.minorDigits == 0)
        #expect(Currency(code: "KWD")?.minorDigits == 3)
        #expect(Currency(code: "CLF")?.minorDigits == 4)
        #expect(Currency(code: "AED")?.minorDigits == 2)
        #expect(Currency(code: "ZWG")?.minorDigits == 2)
        for unknown in ["usd", "US", "USDD", "XXX", "AAA", "ZZZ", "U$D", "ÜSD", "US\u{0}", ""] { #expect(Currency(code: unknown) == nil, "\(unknown)") }
    }
}
