/// An amount a rules file states, per priced currency: `5.00` when the rule set prices one
/// currency, or `{USD: 5.00, EUR: 4.50}`. Checked at load time to fit each currency's digits.
struct PriceAmount: Sendable {
    let minorUnitsByCurrency: [String: Int64]
    /// The one entry when there is one: read on every quote without hashing the code, and
    /// compared as a `Currency` (an integer), where comparing codes made the quote's code a string.
    private let only: (currency: Currency, minorUnits: Int64)?

    init(minorUnitsByCurrency: [String: Int64]) {
        self.minorUnitsByCurrency = minorUnitsByCurrency
        if minorUnitsByCurrency.count == 1, let (code, minorUnits) = minorUnitsByCurrency.first, let currency = Currency(code: code) {
            only = (currency, minorUnits)
        } else {
            only = nil
        }
    }

    func money(in currency: Currency) -> Money {
        if let only { return Money(minorUnits: only.currency == currency ? only.minorUnits : 0, currency: currency) }
        return Money(minorUnits: minorUnitsByCurrency[currency.code] ?? 0, currency: currency)
    }

    /// Exact comparison of a cart value with a threshold in the same currency.
    func isReached(by value: Money) -> Bool { value >= money(in: value.currency) }
}
