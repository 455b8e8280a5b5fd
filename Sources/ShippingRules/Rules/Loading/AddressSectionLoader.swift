/// Reads the rules' `address:` section (see `MissingFieldPolicy`):
///
///     address:
///       missing_postal_code: ask                     # or quote_without (the default)
///       missing_state: { ask_in: [US, CA], message: "Add your state." }
///
/// Unknown keys are reported with a "did you mean" suggestion, like every other section.
struct AddressSectionLoader {
    enum Choice: String, CaseIterable { case ask, quoteWithout = "quote_without" }

    func load(_ node: RulesNode) throws(RulesError) -> MissingFieldPolicy {
        let fields = MissingFieldPolicy.Field.allCases
        let m = try node.mapping("a mapping like {missing_postal_code: ask, missing_state: quote_without}", keys: Set(fields.map(\.key)))
        var policy = MissingFieldPolicy()
        for field in fields {
            guard let value = m[field.key] else { continue }
            if case .mapping = value.node {
                let spec = try value.mapping("a mapping like {ask_in: [US, CA], message: \"Add your ZIP code.\"}", keys: ["ask_in", "message"])
                let countries = try spec["ask_in"].map { (n) throws(RulesError) in try n.countryCodes() }
                let message = try spec["message"]?.nonEmptyString("the text shown to the customer") ?? field.defaultMessage
                policy.ask[field] = .init(countries: countries, error: ShippingError(code: field.code, message: message))
            } else if try value.choice(Choice.self) == .ask {
                policy.ask[field] = .init(countries: nil, error: ShippingError(code: field.code, message: field.defaultMessage))
            }
        }
        return policy
    }
}
