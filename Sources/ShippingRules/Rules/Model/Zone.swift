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
