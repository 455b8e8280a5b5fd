import Testing
@testable import ShippingRules

@Suite("Tax included in prices (VAT, GST)")
struct InclusiveTaxTests {
    private func rules(_ tax: String, level: String = "line", mode: String = "half_even", labels: String = "") throws -> RuleSet {
        try Fixture.rules("""
        rounding: { mode: \(mode), level: \(level) }
        \(labels)
        tax:
        \(tax)
        shipping_methods: [{ id: post, label: Post, price: 3.95 }]

        """, head: "version: 1\npayee: Shop\ncurrencies: [GBP]\n")
    }

    private func gbp(_ t: String) -> Money { try! Money(parsing: t, currency: .gbp) }
    private func cart(_ amounts: String..., category: String? = nil) -> Cart {
        Cart(items: amounts.enumerated().map { CartItem(id: "i\($0)", label: "Item", quantity: 1, unitAmount: gbp($1), taxCategory: category) })
    }
    private func quote(_ set: RuleSet, _ cart: Cart) throws -> ShippingUpdate {
        try #require(set.quote(QuoteRequest(currency: .gbp, address: PartialAddress(postalCode: "SW1A", countryCode: "GB"), cart: cart,
                                            now: Fixture.instant("2026-10-10T12:00:00Z"))).update)
    }

    @Test func containedVATIsShownOnAZeroLineAndTheTotalIsThePrices() throws {
        let set = try rules("  included_in_prices: true\n  layers: [{ id: vat, zone: { country: GB }, rate: 20%, shipping: taxable }]",
                            labels: "labels: { tax: VAT }")
        let update = try quote(set, cart("24.00", "12.00"))
        // 36.00 × 20/120 = 6.00; 3.95 × 20/120 = 0.658… → 0.66
        #expect(update.summaryItems.lines == ["subtotal Subtotal 36.00", "shipping Shipping 3.95",
                                              "tax-included Includes VAT GBP 6.66 0.00", "total Shop 39.95"])
        #expect(UpdateCheck.violations(of: update, currency: .gbp).isEmpty)
    }

    @Test func aLayerCanOverrideTheTaxLevelDefault() throws {
        let set = try rules("""
          included_in_prices: false
          summary: per_layer
          layers:
            - { id: vat, label: VAT, zone: { country: GB }, rate: 20%, included_in_prices: true }
            - { id: levy, label: Levy, zone: { country: GB }, rate: 1% }
        """)
        let update = try quote(set, cart("60.00"))
        // The levy is added on the price as written (0.60); the VAT is contained: 60 × 20/120 = 10.00.
        #expect(update.summaryItems.lines == ["subtotal Subtotal 60.00", "shipping Shipping 3.95", "tax-levy Levy 0.60",
                                              "tax-included-vat Includes VAT GBP 10.00 0.00", "total Shop 64.55"])
        #expect(set.warnings.map(\.kind) == [.overlappingTaxLayers])
    }

    @Test func lineAndTotalRoundingDifferForContainedTax() throws {
        let tax = "  included_in_prices: true\n  layers: [{ id: vat, label: VAT, zone: { country: GB }, rate: 20% }]"
        let items = cart("0.05", "0.05", "0.05")        // each 0.05 × 20/120 = 0.008333…
        let line = try quote(try rules(tax, level: "line"), items)
        let total = try quote(try rules(tax, level: "total"), items)
        #expect(line.summaryItems.first { $0.id == "tax-included" }?.label == "Includes Tax GBP 0.03")    // 3 × 0.01
        #expect(total.summaryItems.first { $0.id == "tax-included" }?.label == "Includes Tax GBP 0.02")   // round(0.025), half to even
    }

    @Test func stackedContainedRatesShareOneDivisor() throws {
        // GST 5 % and PST 7 % both inside 112.00: each is rate/112 of the price.
        let set = try rules("""
          included_in_prices: true
          summary: per_layer
          layers:
            - { id: gst, label: GST, zone: { country: GB }, rate: 5% }
            - { id: pst, label: PST, zone: { country: GB }, rate: 7% }
        """)
        let update = try quote(set, cart("112.00"))
        #expect(update.summaryItems.lines.filter { $0.hasPrefix("tax") } == ["tax-included-gst Includes GST GBP 5.00 0.00",
                                                                            "tax-included-pst Includes PST GBP 7.00 0.00"])
    }

    @Test func aZeroRatedCategoryContainsNoTaxAndMixedDivisorsRoundOnce() throws {
        let set = try rules("""
          included_in_prices: true
          layers: [{ id: vat, label: VAT, zone: { country: GB }, rate: 20%, categories: { books: 5% } }]
        """, level: "total")
        let c = cart("10.00").with(items: cart("10.00").items
                                       + [CartItem(id: "b", label: "Book", quantity: 1, unitAmount: gbp("10.50"), taxCategory: "books")])
        // 10.00 × 20/120 = 1.6666…; 10.50 × 5/105 = 0.50 exactly: 2.1666… → 2.17
        #expect(try quote(set, c).summaryItems.first { $0.id == "tax-included" }?.label == "Includes Tax GBP 2.17")
    }

    @Test func aLabelWithoutTheAmountIsRefused() {
        #expect(throws: RulesError.self) {
            try rules("  layers: []", labels: "labels: { tax_included: \"VAT included\" }")
        }
    }

    @Test func exactSumRoundsMixedDenominators() {
        var sum = ExactSum()
        sum.add(1, over: 3)
        sum.add(1, over: 6)              // 1/3 + 1/6 = 1/2: a tie
        #expect(sum.rounded(.halfEven) == 0)
        #expect(sum.rounded(.halfUp) == 1)
        sum.add(5, over: 2)              // + 2.5 = 3: exact
        #expect(sum.rounded(.halfDown) == 3)
    }
}
