import Foundation

/// Reads a `holidays:` list: dates (`2026-12-24`) and region codes (`US`, `US-CA`, `GB-SCT`) whose
/// public holidays come from the reference data (see `HolidayCalendar`), as days since 1970-01-01.
enum HolidayReader {
    static func days(_ list: RulesNode) throws(RulesError) -> [Int] {
        var days: Set<Int> = []
        for item in try list.list() {
            let text = try item.string("a date like 2026-12-25 or a region like US or US-CA")
            guard HolidayCalendar.looksLikeRegion(text) else {
                days.insert(try item.date().daysSinceEpoch)
                continue
            }
            days.formUnion(try region(item, text))
        }
        return days.sorted()
    }

    private static func region(_ item: RulesNode, _ text: String) throws(RulesError) -> [Int] {
        let code = PlaceName.code(text).replacingOccurrences(of: "_", with: "-")
        if let days = HolidayCalendar.days(of: code) { return days }
        let years = HolidayCalendar.years
        var message = "no public holidays for '\(text)' in the reference data (countries and ISO 3166-2 subdivisions like US, US-CA, "
            + "GB-SCT, \(years.lowerBound)–\(years.upperBound)); write the dates instead"
        let known = Set(HolidayCalendar.regions.keys)
        let country = String(code.prefix { $0 != "-" })
        if let meant = PlaceCodes.countryMistakes[country], known.contains(meant) {
            message += "; did you mean \(meant + code.dropFirst(country.count))?"
        } else if let near = Spelling.nearest(to: code, among: known) {
            message += "; did you mean \(near)?"
        } else if known.contains(country) {
            let subdivisions = known.filter { $0.hasPrefix(country + "-") }.sorted()
            message += subdivisions.isEmpty ? "; \(country) has no subdivisions in the data" : "; \(country)'s are \(subdivisions.joined(separator: ", "))"
        }
        throw item.error(.unknownReference, message)
    }
}
