import Foundation

/// A set of addresses: a country, states, cities, postal codes, with include and exclude lists.
/// A zone that constrains a field never matches an address missing that field: with a partial
/// address we cannot tell, and guessing could offer a method or a tax that does not apply.
struct Zone: Sendable {
    var id: String?
    /// Its place in the rule set's `ZoneIndex`, given when the rule set is compiled (-1 before).
    var number = -1
    /// Where the zone is written, for `rules check` warnings.
    var mark = SourceMark(line: 1, column: 1)
    var field = ""
    /// Upper-cased ISO codes; nil means any country.
    var countries: Set<String>?
    var states: Set<String>?
    var excludeStates: Set<String> = []
    /// Folded city names (see `PlaceName.fold`).
    var cities: Set<String>?
    var excludeCities: Set<String> = []
    var postalCodes: [PostalPattern]? { didSet { postalMatch = postalCodes.map(PostalMatch.init) } }
    var excludePostalCodes: [PostalPattern] = [] { didSet { excludePostalMatch = PostalMatch(excludePostalCodes) } }
    /// The two lists above, compiled for matching.
    private var postalMatch: PostalMatch?
    private var excludePostalMatch = PostalMatch([])

    /// Why the zone does not hold the address, or nil when it does.
    func mismatch(_ address: ResolvedAddress) -> String? {
        if let countries {
            guard let c = address.country else { return "no country in the address" }
            guard countries.contains(c) else { return "country \(c) not in \(countries.sorted().joined(separator: ","))" }
        }
        if states != nil || !excludeStates.isEmpty {
            guard let s = address.state else { return "no state in the address" }
            if let states, !states.contains(s) { return "state not in \(states.sorted().joined(separator: ","))" }
            if excludeStates.contains(s) { return "state excluded" }
        }
        if cities != nil || !excludeCities.isEmpty {
            guard let city = address.city else { return "no city in the address" }
            if let cities, !cities.contains(city) { return "city not listed" }
            if excludeCities.contains(city) { return "city excluded" }
        }
        if postalCodes != nil || !excludePostalCodes.isEmpty {
            guard let code = address.postalCode, let raw = address.rawPostalCode else { return "no postal code in the address" }
            if let postalMatch, !postalMatch.matches(normalized: code, raw: raw) { return "postal code not listed" }
            if excludePostalMatch.matches(normalized: code, raw: raw) { return "postal code excluded" }
        }
        return nil
    }

    /// The same answer as `mismatch(_:) == nil` without building a reason: the quoting hot path.
    func contains(_ address: ResolvedAddress) -> Bool {
        if let countries {
            guard let c = address.country, countries.contains(c) else { return false }
        }
        if states != nil || !excludeStates.isEmpty {
            guard let s = address.state else { return false }
            if let states, !states.contains(s) { return false }
            if excludeStates.contains(s) { return false }
        }
        return holdsCityAndPostalCode(address)
    }

    /// The city and postal-code part of `contains`: `ZoneMatcher` asks country and state its own way.
    func holdsCityAndPostalCode(_ address: ResolvedAddress) -> Bool {
        if cities != nil || !excludeCities.isEmpty {
            guard let city = address.city else { return false }
            if let cities, !cities.contains(city) { return false }
            if excludeCities.contains(city) { return false }
        }
        if postalCodes != nil || !excludePostalCodes.isEmpty {
            guard let code = address.postalCode, let raw = address.rawPostalCode else { return false }
            if let postalMatch, !postalMatch.matches(normalized: code, raw: raw) { return false }
            if excludePostalMatch.matches(normalized: code, raw: raw) { return false }
        }
        return true
    }

    var name: String { id ?? "inline zone" }
}

/// An address normalized once per quote, so that matching many rules does not fold strings again.
struct ResolvedAddress: Sendable {
    let country: String?
    let state: String?
    let city: String?
    let postalCode: String?
    let rawPostalCode: String?
    /// `CodeList.word` of the country and of the state (0 when absent).
    let countryWord: UInt64
    let stateWord: UInt64

    /// `foldCity` false skips folding the city for rule sets that never look at it.
    init(_ address: borrowing PartialAddress, foldCity: Bool = true) {
        country = Self.code(address.countryCode)
        state = Self.code(address.state)
        if let city = address.city, Self.isPresent(city) { self.city = foldCity ? PlaceName.fold(city) : city } else { city = nil }
        // Trimmed and upper-cased once here rather than for every regex it meets.
        rawPostalCode = Self.code(address.postalCode)
        if let rawPostalCode { postalCode = PostalPattern.normalized(rawPostalCode) } else { postalCode = nil }
        if let country { countryWord = CodeList.word(country) } else { countryWord = 0 }
        if let state { stateWord = CodeList.word(state) } else { stateWord = 0 }
    }

    /// A field of more than blanks: a blank one counts as missing.
    private static func isPresent(_ text: borrowing String) -> Bool { text.anyUTF8({ $0 != 0x20 && $0 != 0x09 }) }

    /// A present field as a place code (see `PlaceName.code`), or nil.
    private static func code(_ text: String?) -> String? {
        guard let text, isPresent(text) else { return nil }
        return PlaceName.code(text)
    }
}
