import Testing
@testable import ShippingRules

/// An amount a rules file states, read in the quote's currency: the one entry of a single-currency
/// rule set is compared as a currency, the others are looked up by code.
@Suite("Price amounts")
struct PriceAmountTests {
    @Test func theOneEntryIsTheAmountInItsCurrencyAndZeroInAnother() {
        let price = PriceAmount(minorUnitsByCurrency: ["JPY": 500])
        #expect(price.money(in: .jpy) == Money(minorUnits: 500, currency: .jpy))
        #expect(price.money(in: .usd) == Money(minorUnits: 0, currency: .usd))
    }

    @Test func anEntryOfAnUnknownCodeIsZeroInEveryCurrency() {
        let price = PriceAmount(minorUnitsByCurrency: ["XYZ": 5])
        #expect(price.money(in: .usd) == Money(minorUnits: 0, currency: .usd))
    }

    @Test func severalEntriesAreReadByCode() {
        let price = PriceAmount(minorUnitsByCurrency: ["USD": 500, "EUR": 450])
        #expect(price.money(in: .usd) == Money(minorUnits: 500, currency: .usd))
        #expect(price.money(in: .eur) == Money(minorUnits: 450, currency: .eur))
        #expect(price.money(in: .gbp) == Money(minorUnits: 0, currency: .gbp))
        #expect(price.isReached(by: Money(minorUnits: 500, currency: .usd)))
        #expect(!price.isReached(by: Money(minorUnits: 449, currency: .eur)))
    }
}
