/// One serviceability rule: when every condition holds, the address is refused with `error`.
/// Rules run in file order and the first that matches answers.
/// A class: every quote walks the rules, and a struct element is copied (a retain of each
/// member) on every step of that walk.
final class ServiceabilityRule: Sendable {
    let conditions: [AddressCondition]
    let error: ShippingError
    let index: Int
    /// Where the rule is written, for `rules check` warnings.
    let mark: SourceMark
    /// Each condition behind a reference of its own, asked where it lies: a condition read out of
    /// a list (by `for … in`, by index, or through the list's buffer) was copied, a retain and a
    /// release of what it holds, on every ask of every quote.
    private let held: HeldObjects<HeldCondition>

    init(conditions: [AddressCondition], error: ShippingError, index: Int, mark: SourceMark = SourceMark(line: 1, column: 1)) {
        self.conditions = conditions
        self.error = error
        self.index = index
        self.mark = mark
        held = HeldObjects(conditions.map(HeldCondition.init))
    }

    /// Nil when every condition holds, else why not (for the trace).
    func mismatch(_ address: ResolvedAddress) -> String? {
        held.withBuffer { conditions in
            for i in held.indices {
                if let why = conditions.ask(i, { $0.condition.mismatch(address) }) { return why }
            }
            return nil
        }
    }
}

/// A condition where it lies, so that it is asked in place (see `ServiceabilityRule`).
final class HeldCondition: Sendable {
    let condition: AddressCondition
    init(_ condition: AddressCondition) { self.condition = condition }
}

/// A test on the address. A condition that needs a field the address lacks does not hold,
/// except `missing`, which exists to say what to do with partial addresses.
enum AddressCondition: Sendable {
    case countryIn(CodeList)
    case countryNotIn(CodeList)
    case stateIn(CodeList)
    case stateNotIn(CodeList)
    case cityIn(Set<String>)
    case cityNotIn(Set<String>)
    case postalCodeMatching([PostalPattern])
    case postalCodeNotMatching([PostalPattern])
    /// The code does not fit its country's real format (reference data), shortened forms allowed.
    case postalCodeNotValidForCountry
    // A zone is boxed: inline, its size made every condition 128 bytes, copied whole on every ask.
    indirect case inZone(Zone)
    indirect case notInZone(Zone)
    case missing(Set<AddressField>)

    func mismatch(_ a: ResolvedAddress) -> String? {
        switch self {
        case .countryIn(let list):
            guard let c = a.country else { return "country needed, missing" }
            return list.contains(c, word: a.countryWord) ? nil : "country not listed"
        case .countryNotIn(let list):
            guard let c = a.country else { return "country needed, missing" }
            return list.contains(c, word: a.countryWord) ? "country listed" : nil
        case .stateIn(let list):
            guard let s = a.state else { return "state needed, missing" }
            return list.contains(s, word: a.stateWord) ? nil : "state not listed"
        case .stateNotIn(let list):
            guard let s = a.state else { return "state needed, missing" }
            return list.contains(s, word: a.stateWord) ? "state listed" : nil
        case .cityIn(let set):
            guard let c = a.city else { return "city needed, missing" }
            return set.contains(c) ? nil : "city not listed"
        case .cityNotIn(let set):
            guard let c = a.city else { return "city needed, missing" }
            return set.contains(c) ? "city listed" : nil
        case .postalCodeMatching(let patterns):
            guard let code = a.postalCode, let raw = a.rawPostalCode else { return "postal code needed, missing" }
            return patterns.contains { $0.matches(normalized: code, raw: raw) } ? nil : "postal code does not match"
        case .postalCodeNotMatching(let patterns):
            guard let code = a.postalCode, let raw = a.rawPostalCode else { return "postal code needed, missing" }
            return patterns.contains { $0.matches(normalized: code, raw: raw) } ? "postal code matches" : nil
        case .postalCodeNotValidForCountry:
            guard let c = a.country else { return "country needed, missing" }
            guard let raw = a.rawPostalCode else { return "postal code needed, missing" }
            // A country without postal codes in the data cannot be told a code is wrong.
            guard let format = PostalCodeFormat.countries[c] else { return "no postal-code format known for the country" }
            return format.accepts(raw) ? "postal code fits the country's format" : nil
        case .inZone(let zone):
            // No closure over `zone`: one that captured it made every call copy the whole condition.
            guard let why = zone.mismatch(a) else { return nil }
            return "not in \(zone.name): \(why)"
        case .notInZone(let zone):
            // Outside a zone is only known when every field the zone needs is present.
            if let why = zone.mismatch(a) { return why.hasPrefix("no ") ? why : nil }
            return "in \(zone.name)"
        case .missing(let fields):
            for field in fields where field.value(in: a) != nil { return "\(field.rawValue) present" }
            return nil
        }
    }
}

enum AddressField: String, Sendable, CaseIterable {
    case country, state, city
    case postalCode = "postal_code"

    func value(in a: ResolvedAddress) -> String? {
        switch self {
        case .country: return a.country
        case .state: return a.state
        case .city: return a.city
        case .postalCode: return a.postalCode
        }
    }
}
