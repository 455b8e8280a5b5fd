import Testing
@testable import ShippingRules

/// 総額表示: prices include consumption tax, and the qualified invoice shows the tax each rate
/// contains, rounded once per rate, on its own zero-amount line.
@Suite struct PerRateInclusiveTaxTests {
    static func rules(included: Bool = true, rounding: String = "{ mode: down, level: rate }", summary: String = "per_rate",
                      label: String = "\"うち{label}{rate}% ¥{amount}\"") throws(RulesError) -> RuleSet {
        try Fixture.rules("""
        rounding: \(rounding)
        labels: { tax: 消費税, tax_included: \(label) }
        tax:
          included_in_prices: \(included)
          summary: \(summary)
          layers:
            - { id: consumption, zone: { country: JP }, rate: 10%, shipping: taxable, categories: { food: 8% } }
        shipping_methods:
          - { id: takkyubin, label: Takkyubin, price: 880 }
        """, head: "version: 1\npayee: Sakura Tea\ncurrencies: [JPY]\n")
    }

    static func yen(_ amount: Int) -> Money { Money(minorUnits: Int64(amount), currency: .jpy) }

    /// ¥1,012 of food and ¥1,810 of other goods, prices with tax.
    static func request(food: Int = 1012, other: Int = 1810) -> QuoteRequest {
        QuoteRequest(merchant: nil, trigger: .addressChanged, currency: .jpy,
                     address: PartialAddress(city: "Shibuya", state: "13", postalCode: "150-0002", countryCode: "JP"),
                     cart: Cart(items: [
                         CartItem(id: "tea", label: "Sencha", quantity: 1, unitAmount: yen(food), taxCategory: "food"),
                         CartItem(id: "cup", label: "Cup", quantity: 1, unitAmount: yen(other)),
                     ]),
                     selectedShippingMethodID: "takkyubin", now: Fixture.instant("2026-10-10T03:00:00Z"))
    }

    @Test func eachRatesContainedTaxIsShownOnItsOwnZeroLineRoundedDownOnce() throws {
        let update = try #require(try Self.rules().quote(Self.request()).update)
        // 10 %: (1810 + 880) × 10/110 = 244.54… → 244; 8 %: 1012 × 8/108 = 74.96… → 74. Nothing is added.
        #expect(update.summaryItems.lines == [
            "subtotal Subtotal 2822", "shipping Shipping 880",
            "tax-included-10 うち消費税10% ¥244 0", "tax-included-8 うち消費税8% ¥74 0",
            "total Sakura Tea 3702",
        ])
    }

    @Test func perRateRoundingIsOneYenBelowRoundingOnceAcrossBothRates() throws {
        // Together 319.5… → 319 once on the total; per rate 244 + 74 = 318, the qualified invoice's figure.
        let total = try #require(try Self.rules(rounding: "{ mode: down, level: total }", summary: "combined",
                                                label: "\"うち{label} ¥{amount}\"").quote(Self.request()).update)
        #expect(total.summaryItems.lines.filter { $0.hasPrefix("tax") } == ["tax-included うち消費税 ¥319 0"])
        let rate = try #require(try Self.rules(summary: "combined", label: "\"うち{label} ¥{amount}\"").quote(Self.request()).update)
        #expect(rate.summaryItems.lines.filter { $0.hasPrefix("tax") } == ["tax-included うち消費税 ¥318 0"])
    }

    @Test func addedTaxPerRateIsChargedOnSeparateLines() throws {
        let update = try #require(try Self.rules(included: false, label: "\"{label} {amount}\"").quote(Self.request(food: 1005, other: 1804)).update)
        // 10 %: (1804 + 880) × 10 % = 268.4 → 268; 8 %: 1005 × 8 % = 80.4 → 80.
        #expect(update.summaryItems.lines.filter { $0.hasPrefix("tax") } == ["tax-10 消費税 10% 268", "tax-8 消費税 8% 80"])
        #expect(update.summaryItems.last?.amount == Self.yen(1005 + 1804 + 880 + 268 + 80))
    }

    @Test func aRateNothingIsTaxedAtHasNoLine() throws {
        // Food only, shipping free from ¥0 here: the 10 % rate taxes nothing and is not listed.
        let rules = try Fixture.rules("""
        rounding: { mode: down, level: rate }
        tax:
          included_in_prices: true
          summary: per_rate
          layers:
            - { id: consumption, label: 消費税, zone: { country: JP }, rate: 10%, shipping: taxable, categories: { food: 8% } }
        shipping_methods:
          - { id: takkyubin, label: Takkyubin, price: 0 }
        """, head: "version: 1\npayee: Sakura Tea\ncurrencies: [JPY]\n")
        let request = Self.request().with(cart: Self.request().cart.with(items: Array(Self.request().cart.items.dropLast())))
        let update = try #require(rules.quote(request).update)
        // The default label has no {rate}: the rate joins the tax's name. 1012 × 8/108 = 74.9… → 74.
        #expect(update.summaryItems.lines.filter { $0.hasPrefix("tax") } == ["tax-included-8 Includes Tax 8% JPY 74 0"])
    }

    @Test func theTraceNamesEachRate() throws {
        let trace = try Self.rules().explain(Self.request()).trace
        #expect(trace.contains("method takkyubin tax at 10% included in prices, down once for the rate → 244 contained"))
        #expect(trace.contains("method takkyubin tax at 8% included in prices, down once for the rate → 74 contained"))
    }

    @Test func perRateNeedsRateLevelRoundingAndRateNeedsPerRate() {
        let lineLevel = Fixture.loadError("""
        version: 1
        payee: Shop
        currencies: [USD]
        rounding: { mode: down, level: line }
        tax: { summary: per_rate, layers: [{ id: c, zone: { country: JP }, rate: 10% }] }
        shipping_methods: [{ id: a, label: A, price: 1 }]
        """)
        #expect(lineLevel?.description.contains("add rounding: {level: rate}") == true)
        let rateWithoutPerRate = Fixture.loadError("""
        version: 1
        payee: Shop
        currencies: [USD]
        labels: { tax_included: "Includes {rate}% {amount}" }
        tax: { layers: [{ id: c, zone: { country: US }, rate: 10% }] }
        shipping_methods: [{ id: a, label: A, price: 1.00 }]
        """)
        #expect(rateWithoutPerRate?.description.contains("{rate} names one rate; it needs tax: {summary: per_rate}") == true)
    }
}
