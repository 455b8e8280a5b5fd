/// WooCommerce's tax-rate CSV export (WooCommerce → Settings → Tax → Export CSV), applied as
/// WooCommerce applies it: a row matches when its country, state, postcodes and cities hold the
/// address (an empty or `*` cell holds any); of the matching rows of a tax class, the first of
/// each priority in file order applies; compound rows are charged on the goods plus the class's
/// other (non-compound) taxes. Rows are filed at load by country and postcode, so a quote visits
/// only the rows that can match.
final class WooCommerceRates: Sendable {
    struct Rate: Sendable {
        var country: String
        var state: String
        var postcodes: [Postcode]
        /// Folded (`PlaceName.fold`); empty holds any city.
        var cities: Set<String>
        /// Percent.
        var rate: ExactDecimal
        var name: String
        var priority: Int
        var compound: Bool
        var shipping: Bool
        /// The tax class slug; empty for Standard.
        var taxClass: String
        var line: Int
    }

    /// One cell of a row's postcode list.
    enum Postcode: Sendable, Equatable {
        case exact(String)
        /// `950*`: codes starting with the stem.
        case prefix(String)
        /// `90210...90299`: numeric codes within, compared on the bounds' digit count.
        case range(lower: Int, upper: Int, digits: Int)

        func holds(_ code: String) -> Bool {
            switch self {
            case .exact(let value): return code == value
            case .prefix(let stem): return code.hasPrefix(stem)
            case .range(let lower, let upper, let digits):
                guard code.utf8.count >= digits else { return false }
                var value = 0
                for b in code.utf8.prefix(digits) {
                    guard b >= 0x30 && b <= 0x39 else { return false }
                    value = value * 10 + Int(b - 0x30)
                }
                return lower <= value && value <= upper
            }
        }
    }

    /// The rows of one country (or of any country: the empty key), filed by what can match.
    private struct Bucket: Sendable {
        var exact: [String: [Int32]] = [:]
        var prefixes: [String: [Int32]] = [:]
        /// Rows with ranges, and rows without postcodes: checked one by one (few in real tables).
        var scanned: [Int32] = []
    }

    let file: String
    let rates: [Rate]
    /// The tax classes other than Standard, in file order: each is a cart category.
    let classes: [String]
    let usesCities: Bool
    private let buckets: [String: Bucket]

    private static let columns: [(name: String, spellings: [String], required: Bool)] = [
        ("Country code", ["countrycode", "country"], true),
        ("State code", ["statecode", "state"], true),
        ("Postcode / ZIP", ["postcodezip", "zippostcode", "postcode", "zip"], true),
        ("City", ["city", "cities"], true),
        ("Rate %", ["rate"], true),
        ("Tax name", ["taxname", "name"], true),
        ("Priority", ["priority"], true),
        ("Compound", ["compound"], true),
        ("Shipping", ["shipping"], true),
        ("Tax class", ["taxclass", "class"], false),
    ]

    init(_ table: CSVTable) throws(RulesError) {
        let at = try table.columns(Self.columns)
        var rates: [Rate] = []
        var classes: [String] = []
        for row in table.rows {
            func cell(_ k: Int) -> String { at[k].map { table.cell(row, $0) } ?? "" }
            func flag(_ k: Int) throws(RulesError) -> Bool {
                switch cell(k) {
                case "1": return true
                case "0", "": return false
                default: throw table.error(row, at[k]!, "expected 1 or 0, found \"\(cell(k))\"")
                }
            }
            var country = PlaceName.code(cell(0))
            if country == "*" { country = "" }
            guard country.isEmpty || (country.utf8.count == 2 && country.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A })) else {
                throw table.error(row, at[0]!, "expected a two-letter country code like US, or empty for any country, found \"\(cell(0))\"")
            }
            var state = PlaceName.code(cell(1))
            if state == "*" { state = "" }
            let postcodes = try Self.postcodes(cell(2), table, row, at[2]!)
            let cities = Set(cell(3).split(separator: ";").map { PlaceName.fold(String($0)) }.filter { !$0.isEmpty && $0 != "*" })
            let rate = try RateCell.percent(table, row, at[4]!)
            guard let priority = Int(cell(6)), priority >= 0 else {
                throw table.error(row, at[6]!, "expected a priority like 1 (a whole number), found \"\(cell(6))\"")
            }
            let compound = try flag(7)
            let shipping = try flag(8)
            var taxClass = cell(9)
            if taxClass.lowercased() == "standard" { taxClass = "" }
            if !taxClass.isEmpty && !classes.contains(taxClass) { classes.append(taxClass) }
            rates.append(Rate(country: country, state: state, postcodes: postcodes, cities: cities, rate: rate, name: cell(5),
                              priority: priority, compound: compound, shipping: shipping, taxClass: taxClass, line: row.line))
        }
        // A compound rate is charged on the other taxes too: r × (100 + R) / 100 must stay within
        // the 6 decimals tax arithmetic carries, whichever of the class's rates that can apply with
        // it (same or any country and state) R adds up.
        for (k, rate) in rates.enumerated() where rate.compound {
            func near(_ other: Rate) -> Bool {
                (other.country.isEmpty || rate.country.isEmpty || other.country == rate.country)
                    && (other.state.isEmpty || rate.state.isEmpty || other.state == rate.state)
            }
            let widest = rates.filter { !$0.compound && $0.taxClass == rate.taxClass && near($0) }.map(\.rate.scale).max() ?? 0
            if rate.rate.scale + widest + 2 > 6 {
                throw table.error(table.rows[k], at[4]!, "a compound rate of \(rate.rate.scale) decimals on rates of \(widest) decimals needs more "
                                  + "than 6 decimals once compounded; write rates with fewer decimals")
            }
        }
        var buckets: [String: Bucket] = [:]
        for (k, rate) in rates.enumerated() {
            let n = Int32(k)
            var bucket = buckets[rate.country] ?? Bucket()
            let ranged = rate.postcodes.contains { if case .range = $0 { true } else { false } }
            if rate.postcodes.isEmpty || ranged {
                bucket.scanned.append(n)
            } else {
                for postcode in rate.postcodes {
                    switch postcode {
                    case .exact(let code): bucket.exact[code, default: []].append(n)
                    case .prefix(let stem): bucket.prefixes[stem, default: []].append(n)
                    case .range: break
                    }
                }
            }
            buckets[rate.country] = bucket
        }
        self.file = table.file
        self.rates = rates
        self.classes = classes
        self.usesCities = rates.contains { !$0.cities.isEmpty }
        self.buckets = buckets
    }

    /// `95014;95015`, `950*`, `90210...90299`; empty or `*` for any postcode.
    private static func postcodes(_ text: String, _ table: CSVTable, _ row: CSVTable.Row, _ column: Int) throws(RulesError) -> [Postcode] {
        var result: [Postcode] = []
        for part in text.split(separator: ";") {
            let raw = String(part).trimmingCharacters(in: .whitespaces)
            if raw.isEmpty || raw == "*" { return [] }
            if let dots = raw.range(of: "...") {
                let lower = PostalPattern.normalized(String(raw[..<dots.lowerBound]))
                let upper = PostalPattern.normalized(String(raw[dots.upperBound...]))
                guard !lower.isEmpty, lower.utf8.count == upper.utf8.count, lower.utf8.count <= 9,
                      let l = Int(lower), let u = Int(upper), lower.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                      upper.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), l <= u else {
                    throw table.error(row, column, "expected a range of numeric postcodes of equal length, low first, like 90210...90299, found \"\(raw)\"")
                }
                result.append(.range(lower: l, upper: u, digits: lower.utf8.count))
                continue
            }
            let code = PostalPattern.normalized(raw)
            if let star = code.firstIndex(of: "*") {
                // WooCommerce matches a wildcard only at the end: `950*`, never `9*14`.
                guard star == code.index(before: code.endIndex), code.count > 1 else {
                    throw table.error(row, column, "a wildcard * ends a postcode prefix, like 950*; found \"\(raw)\"")
                }
                result.append(.prefix(String(code.dropLast())))
            } else {
                result.append(.exact(code))
            }
        }
        return result
    }

    /// The rows that apply to the address, one per tax class and priority, in priority order.
    func matching(country: String?, state: String?, city: String?, postalCode: String?) -> [Rate] {
        var candidates: [Int32] = []
        var keys = [""]
        if let country, !country.isEmpty { keys.insert(country, at: 0) }
        for key in keys {
            guard let bucket = buckets[key] else { continue }
            candidates.append(contentsOf: bucket.scanned)
            if let code = postalCode {
                candidates.append(contentsOf: bucket.exact[code] ?? [])
                // A US ZIP+4 is also its ZIP: rows list five-digit ZIPs.
                if country == "US" && code.utf8.count == 9 { candidates.append(contentsOf: bucket.exact[String(code.prefix(5))] ?? []) }
                if !bucket.prefixes.isEmpty {
                    var stem = Substring(code)
                    while !stem.isEmpty {
                        candidates.append(contentsOf: bucket.prefixes[String(stem)] ?? [])
                        stem = stem.dropLast()
                    }
                }
            }
        }
        candidates.sort()
        var taken: Set<String> = []
        var previous: Int32 = -1
        var result: [Rate] = []
        for n in candidates where n != previous {
            previous = n
            let rate = rates[Int(n)]
            if !rate.state.isEmpty && rate.state != state { continue }
            if !rate.cities.isEmpty { guard let city, rate.cities.contains(city) else { continue } }
            if !rate.postcodes.isEmpty {
                guard let code = postalCode else { continue }
                let zip5 = country == "US" && code.utf8.count == 9 ? String(code.prefix(5)) : code
                guard rate.postcodes.contains(where: { $0.holds(code) || $0.holds(zip5) }) else { continue }
            }
            guard taken.insert("\(rate.priority) \(rate.taxClass)").inserted else { continue }
            result.append(rate)
        }
        result.sort { $0.priority < $1.priority }
        return result
    }
}
