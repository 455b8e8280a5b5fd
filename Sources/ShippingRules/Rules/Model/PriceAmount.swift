/// An amount a rules file states, per priced currency: `5.00` when the rule set prices one
/// currency, or `{USD: 5.00, EUR: 4.50}`. Checked at load time to fit each currency's digits.
struct PriceAmount: Sendable {
    let minorUnitsByCurrency: [String: Int64]
    /// The one entry when there is one: read on every quote without hashing the code.
    private let only: (code: String, minorUnits: Int64)?

    init(minorUnitsByCurrency: [String: Int64]) {
        self.minorUnitsByCurrency = minorUnitsByCurrency
        only = minorUnitsByCurrency.count == 1 ? minorUnitsByCurrency.first.map { ($0.key, $0.value) } : nil
    }

    func money(in currency: Currency) -> Money {
        if let only { return Money(minorUnits: only.code == currency.code ? only.minorUnits : 0, currency: currency) }
        return Money(minorUnits: minorUnitsByCurrency[currency.code] ?? 0, currency: currency)
    }

    /// Exact comparison of a cart value with a threshold in the same currency.
    func isReached(by value: Money) -> Bool { value >= money(in: value.currency) }
}
