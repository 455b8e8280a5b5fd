/// Public holidays by region from the generated `PublicHolidays` table (the `holidays` package),
/// for `holidays: [US, US-CA]` in rules. Only the regions a rules file names are parsed, at load.
enum HolidayCalendar {
    /// Region code (`US`, `US-CA`, `GB-SCT`) → its dates as written in the table.
    static let regions: [String: Substring] = {
        // Split on bytes: the table is large, and splitting on Characters would walk its graphemes.
        var table: [String: Substring] = [:]
        let text = PublicHolidays.regions
        for line in text.utf8.split(separator: UInt8(ascii: "\n")) {
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else { continue }
            table[String(Substring(line[..<equals]))] = Substring(line[line.index(after: equals)...])
        }
        return table
    }()

    static var years: ClosedRange<Int> { PublicHolidays.firstYear...PublicHolidays.lastYear }

    /// The region's holidays as days since 1970-01-01, ascending, or nil for a code the data does not know.
    static func days(of region: String) -> [Int]? {
        regions[region].map { $0.split(separator: " ").compactMap { CalendarDate(iso: String($0))?.daysSinceEpoch }.sorted() }
    }

    /// Whether `text` is written like a region code (`US`, `gb-sct`) rather than a date.
    static func looksLikeRegion(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        return first.properties.numericType == nil
    }
}
