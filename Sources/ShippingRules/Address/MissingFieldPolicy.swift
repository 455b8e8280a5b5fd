/// What a missing address field means, chosen in the rules' `address:` section:
///
///     address: { missing_postal_code: ask, missing_state: { ask_in: [US, CA] }, missing_country: ask }
///
/// `ask` answers `unserviceable` with the SDK code that points the sheet at that field
/// (`POSTAL_CODE_INVALID`, `STATE_NOT_SUPPORTED`, `COUNTRY_NOT_SUPPORTED`, `CITY_NOT_SUPPORTED`),
/// so the customer completes the address; `quote_without` (the default) quotes without the field,
/// and every zone that constrains it (a postal-code district, `exclude_states`) then cannot hold.
/// The check runs after serviceability, so a refused country is refused before a field is asked for.
struct MissingFieldPolicy: Sendable {
    enum Field: String, CaseIterable, Sendable {
        case country, state, postalCode = "postal_code", city

        var key: String { "missing_" + rawValue }

        var code: String {
            switch self {
            case .country: return ShippingError.countryNotSupported
            case .state: return ShippingError.stateNotSupported
            case .postalCode: return ShippingError.postalCodeInvalid
            case .city: return ShippingError.cityNotSupported
            }
        }

        var defaultMessage: String {
            switch self {
            case .country: return "Add the country to your shipping address."
            case .state: return "Add the state or province to your shipping address."
            case .postalCode: return "Add the ZIP or postal code to your shipping address."
            case .city: return "Add the city to your shipping address."
            }
        }

        func value(of address: ResolvedAddress) -> String? {
            switch self {
            case .country: return address.country
            case .state: return address.state
            case .postalCode: return address.postalCode
            case .city: return address.city
            }
        }

        func constrained(by zone: Zone) -> Bool {
            switch self {
            case .country: return zone.countries != nil
            case .state: return zone.states != nil || !zone.excludeStates.isEmpty
            case .postalCode: return zone.postalCodes != nil || !zone.excludePostalCodes.isEmpty
            case .city: return zone.cities != nil || !zone.excludeCities.isEmpty
            }
        }
    }

    struct Ask: Sendable {
        /// Countries where the field is asked for; nil: everywhere (also when the country is missing).
        var countries: Set<String>?
        var error: ShippingError
    }

    /// Field → ask; a field not listed is quoted without.
    var ask: [Field: Ask] = [:]

    var isEmpty: Bool { ask.isEmpty }

    /// The error to answer when a field the rules ask for is missing; nil to quote. With a trace,
    /// a field quoted without names the zones that then cannot hold.
    func missingFieldError(_ address: ResolvedAddress, zones: [Zone], trace: inout Trace) -> ShippingError? {
        // The common case: a complete address, or nothing asked and no trace to write.
        if address.country != nil, address.state != nil, address.postalCode != nil, address.city != nil { return nil }
        if ask.isEmpty && !trace.enabled { return nil }
        for field in Field.allCases where field.value(of: address) == nil {
            if let ask = ask[field], ask.countries.map({ c in address.country.map(c.contains) ?? false }) ?? true {
                trace.add("address has no \(field.rawValue) and the rules say \(field.key): ask: \(ask.error.code)")
                return ask.error
            }
            guard trace.enabled else { continue }
            let lost = zones.filter(field.constrained).map(\.name)
            trace.add("address has no \(field.rawValue): quoted without it"
                      + (lost.isEmpty ? "" : " (zones that cannot hold: \(Array(Set(lost)).sorted().joined(separator: ", ")))"))
        }
        return nil
    }
}
