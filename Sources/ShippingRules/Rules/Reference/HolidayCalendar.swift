/// Public holidays by region from the generated `PublicHolidays` table (the `holidays` package),
/// for `holidays: [US, US-CA]` in rules. Parsed once, on first use, into day numbers.
enum HolidayCalendar {
    /// Region code (`US`, `US-CA`, `GB-SCT`) → days since 1970-01-01, ascending.
    static let regions: [String: [Int]] = {
        var table: [String: [Int]] = [:]
        for line in PublicHolidays.regions.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let days = line[line.index(after: equals)...].split(separator: " ").compactMap { CalendarDate(iso: String($0))?.daysSinceEpoch }
            table[String(line[..<equals])] = days.sorted()
        }
        return table
    }()

    static var years: ClosedRange<Int> { PublicHolidays.firstYear...PublicHolidays.lastYear }

    /// The region's holidays, or nil for a code the data does not know.
    static func days(of region: String) -> [Int]? { regions[region] }

    /// Whether `text` is written like a region code (`US`, `gb-sct`) rather than a date.
    static func looksLikeRegion(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        return !(first.properties.numericType != nil)
    }
}
