/// An amount a rules file states, per priced currency: `5.00` when the rule set prices one
/// currency, or `{USD: 5.00, EUR: 4.50}`. Checked at load time to fit each currency's digits.
struct PriceAmount: Sendable {
    let minorUnitsByCurrency: [String: Int64]

    func money(in currency: Currency) -> Money {
        Money(minorUnits: minorUnitsByCurrency[currency.code] ?? 0, currency: currency)
    }

    /// Exact comparison of a cart value with a threshold in the same currency.
    func isReached(by value: Money) -> Bool { value >= money(in: value.currency) }
}
