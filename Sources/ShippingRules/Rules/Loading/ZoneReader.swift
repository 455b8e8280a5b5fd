/// Reads zones, inline or by id. A zone may say `country` or `countries`, `state` or `states`,
/// `city` or `cities`; each takes one value or a list.
struct ZoneReader {
    let table: [String: Zone]
    /// Ids of zone entries that failed to load (already reported); nil when the whole `zones:` list did.
    var broken: Set<String>? = []

    static let keys: Set<String> = [
        "id", "country", "countries", "state", "states", "exclude_states", "city", "cities", "exclude_cities",
        "postal_codes", "exclude_postal_codes",
    ]

    /// A zone id (`bay-area`) or an inline zone mapping.
    func reference(_ node: RulesNode) throws(RulesError) -> Zone {
        if case .scalar = node.node {
            let id = try node.string("a zone id")
            guard let zone = table[id] else {
                if broken?.contains(id) ?? true {
                    var error = node.error(.unknownReference, "zone '\(id)' could not be loaded")
                    error.followsEarlier = true
                    throw error
                }
                let known = (Array(table.keys) + (broken ?? [])).sorted()
                var message = "no zone with id '\(id)'"
                if let near = Spelling.nearest(to: id, among: Set(known)) { message += "; did you mean '\(near)'?" }
                else if !known.isEmpty { message += "; zones defined: \(known.joined(separator: ", "))" }
                else { message += "; define it under zones:" }
                throw node.error(.unknownReference, message)
            }
            return zone
        }
        return try Self.zone(node, named: false)
    }

    static func zone(_ node: RulesNode, named: Bool) throws(RulesError) -> Zone {
        let m = try node.mapping(named ? "a zone like {id: bay-area, country: US, postal_codes: [\"941*\"]}"
                                       : "a zone id or a zone like {country: US, state: CA}", keys: keys)
        var zone = Zone()
        zone.mark = node.mark
        zone.field = node.path
        if named {
            zone.id = try m.required("id", "a zone id like bay-area").nonEmptyString("a zone id like bay-area")
        } else if let id = m["id"] {
            throw id.error(.unknownKey, "an inline zone has no id; define it under zones: to name it")
        }
        zone.countries = try either(m, "country", "countries").map { (n) throws(RulesError) in try n.countryCodes() }
        zone.states = try either(m, "state", "states").map { (n) throws(RulesError) in try n.subdivisionCodes() }
        zone.excludeStates = try m["exclude_states"].map { (n) throws(RulesError) in try n.subdivisionCodes() } ?? []
        zone.cities = try either(m, "city", "cities").map { (n) throws(RulesError) in Set(try n.stringList("a city name").map(PlaceName.fold)) }
        zone.excludeCities = try m["exclude_cities"].map { (n) throws(RulesError) in Set(try n.stringList("a city").map(PlaceName.fold)) } ?? []
        zone.postalCodes = try m["postal_codes"].map { (n) throws(RulesError) in try postalPatterns(n) }
        zone.excludePostalCodes = try m["exclude_postal_codes"].map { (n) throws(RulesError) in try postalPatterns(n) } ?? []
        return zone
    }

    /// The value of `one` or of `many` (`country` or `countries`), not both.
    private static func either(_ m: RulesMapping, _ one: String, _ many: String) throws(RulesError) -> RulesNode? {
        if let a = m[one], m.has(many) { throw a.error(.invalidValue, "give either \(one) or \(many), not both") }
        return m[one] ?? m[many]
    }

    static func postalPatterns(_ node: RulesNode) throws(RulesError) -> [PostalPattern] {
        try node.list().map { (item) throws(RulesError) -> PostalPattern in
            let text = try item.string("a postal code, prefix \"941*\", range \"94000..94999\" or regex \"^\\\\d{5}$\"")
            do throws(PostalPattern.ParseError) { return try PostalPattern(parsing: text) } catch {
                guard case .invalid(let message) = error else { throw item.expected("a postal code pattern") }
                throw item.error(.invalidValue, message)
            }
        }
    }
}

/// Reads serviceability conditions: `{country_not_in: [US]}`, `{country: US, postal_code_not_matching: '^\d{5}$'}`.
struct AddressConditionReader {
    let zones: ZoneReader

    static let keys: Set<String> = [
        "country", "country_in", "country_not_in", "state", "state_in", "state_not_in", "city_in", "city_not_in",
        "postal_code_matching", "postal_code_not_matching", "postal_code_not_valid_for_country", "zone", "not_in_zone", "missing",
    ]

    func conditions(_ node: RulesNode) throws(RulesError) -> [AddressCondition] {
        let m = try node.mapping("conditions like {country_not_in: [US]}", keys: Self.keys)
        var result: [AddressCondition] = []
        // Walk in file order so the trace reads as the merchant wrote it.
        for key in RuleSetLoader.keys(of: node) {
            guard let n = m[key] else { continue }
            switch key {
            case "country", "country_in": result.append(.countryIn(CodeList(try n.countryCodes())))
            case "country_not_in": result.append(.countryNotIn(CodeList(try n.countryCodes())))
            case "state", "state_in": result.append(.stateIn(CodeList(try n.subdivisionCodes())))
            case "state_not_in": result.append(.stateNotIn(CodeList(try n.subdivisionCodes())))
            case "city_in": result.append(.cityIn(Set(try n.stringList("a city").map(PlaceName.fold))))
            case "city_not_in": result.append(.cityNotIn(Set(try n.stringList("a city").map(PlaceName.fold))))
            case "postal_code_matching": result.append(.postalCodeMatching(try ZoneReader.postalPatterns(n)))
            case "postal_code_not_matching": result.append(.postalCodeNotMatching(try ZoneReader.postalPatterns(n)))
            case "postal_code_not_valid_for_country":
                guard try n.bool() else { throw n.expected("true (false would never refuse anything: leave the key out)") }
                _ = PostalCodeFormat.countries.count    // compiled now, not on the first quote
                result.append(.postalCodeNotValidForCountry)
            case "zone": result.append(.inZone(try zones.reference(n)))
            case "not_in_zone": result.append(.notInZone(try zones.reference(n)))
            case "missing":
                var fields: Set<AddressField> = []
                for item in try n.list() { fields.insert(try item.choice(AddressField.self)) }
                result.append(.missing(fields))
            default: break
            }
        }
        guard !result.isEmpty else { throw node.expected("at least one condition, like {country_not_in: [US]}") }
        return result
    }
}

/// Reads amounts against the rule set's currencies: a plain `5.00` when it prices one
/// currency, a map `{USD: 5.00, EUR: 4.50}` covering every currency otherwise.
struct AmountReader {
    /// Nil when the rules' currencies could not be read (already reported): amounts are then not checked.
    let currencies: [Currency]?

    func amount(_ node: RulesNode) throws(RulesError) -> PriceAmount {
        var result: [String: Int64] = [:]
        guard let currencies else { return PriceAmount(minorUnitsByCurrency: [:]) }
        if case .mapping = node.node {
            let codes = Set(currencies.map(\.code))
            let m = try node.mapping("amounts per currency like {USD: 5.00}", keys: codes)
            for currency in currencies {
                let n = try m.required(currency.code, "an amount in \(currency.code)")
                result[currency.code] = try minorUnits(n, currency)
            }
        } else {
            guard currencies.count == 1 else {
                let example = currencies.map { "\($0.code): …" }.joined(separator: ", ")
                throw node.error(.invalidValue, "this rule set prices several currencies; expected an amount per currency like {\(example)}, found \(node.node.shortDescription)")
            }
            result[currencies[0].code] = try minorUnits(node, currencies[0])
        }
        return PriceAmount(minorUnitsByCurrency: result)
    }

    private func minorUnits(_ node: RulesNode, _ currency: Currency) throws(RulesError) -> Int64 {
        let example = currency.minorDigits == 0 ? "500" : "5." + String(repeating: "0", count: currency.minorDigits)
        let value = try node.decimal("a decimal amount like \(example)")
        guard !value.isNegative else { throw node.expected("an amount of zero or more") }
        do { return try Money(value, currency: currency).minorUnits } catch {
            switch error {
            case .tooManyDecimals:
                throw node.error(.invalidValue, "expected at most \(currency.minorDigits) decimals for \(currency.code), found \(node.node.shortDescription)")
            case .outOfRange:
                throw node.expected("an amount below 10^\(15 - currency.minorDigits)")
            }
        }
    }
}
