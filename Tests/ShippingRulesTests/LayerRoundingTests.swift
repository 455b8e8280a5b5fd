import Testing
@testable import ShippingRules

/// Stacked tax layers are rounded at their combined rate, per line or once on the invoice, and a
/// layer shown on its own line gets its share of that, so the layers add up to what is charged.
@Suite struct LayerRoundingTests {
    static func tax(_ update: ShippingUpdate) -> [String] { update.summaryItems.lines.filter { $0.hasPrefix("tax") } }

    static func rules(level: String, summary: String) throws -> RuleSet {
        try Fixture.rules("""
        rounding: { mode: half_up, level: \(level) }
        tax:
          summary: \(summary)
          layers:
            - { id: ca, label: CA sales tax, zone: { country: US, state: CA }, rate: 7.25%, shipping: exempt }
            - { id: district, label: District tax, zone: { country: US, state: CA }, rate: 1.5%, shipping: exempt }
        shipping_methods:
          - { id: standard, label: Standard, price: 0.00 }
        """)
    }

    @Test func threeLinesAtThreeDollarsInCupertinoAreTaxedSeventyEightCentsPerLineNotEightyOne() throws {
        let update = try #require(Fixture.acme.quote(Fixture.request(cart: Fixture.cart("3.00", "3.00", "3.00"))).update)
        #expect(Self.tax(update) == ["tax Tax 0.78"])   // 3 × round(3.00 × 8.75 %) = 3 × 0.26
    }

    @Test func aSingleThreeDollarItemIsTaxedTwentySixCents() throws {
        let update = try #require(Fixture.acme.quote(Fixture.request(cart: Fixture.cart("3.00"))).update)
        #expect(Self.tax(update) == ["tax Tax 0.26"])   // 0.2625, not 0.22 + 0.05
    }

    @Test func perLayerLinesAddUpToTheCombinedRoundingOfEachLine() throws {
        let update = try #require(try Self.rules(level: "line", summary: "per_layer").quote(Fixture.request(cart: Fixture.cart("3.00", "3.00", "3.00"))).update)
        // Per line 0.2175 + 0.045 = 0.2625 → 0.26, split 0.22 + 0.04 (the larger remainder takes the cent).
        #expect(Self.tax(update) == ["tax-ca CA sales tax 0.66", "tax-district District tax 0.12"])
    }

    @Test func atInvoiceLevelTheTotalIsRoundedOnceAndSplitByLargestRemainder() throws {
        let combined = try #require(try Self.rules(level: "total", summary: "combined").quote(Fixture.request(cart: Fixture.cart("3.00", "3.00", "3.00"))).update)
        #expect(Self.tax(combined) == ["tax Tax 0.79"])   // 0.7875 rounded once
        let perLayer = try #require(try Self.rules(level: "total", summary: "per_layer").quote(Fixture.request(cart: Fixture.cart("3.00", "3.00", "3.00"))).update)
        // 0.6525 + 0.135 = 0.7875 → 0.79: floors 0.65 + 0.13, the cent left goes to the larger remainder (0.5 > 0.25).
        #expect(Self.tax(perLayer) == ["tax-ca CA sales tax 0.65", "tax-district District tax 0.14"])
    }

    @Test func splittingGivesEachLayerItsFloorAndTheLeftoverToTheLargestRemainders() {
        func share(_ n: Int128, over d: Int128) -> ExactSum { var s = ExactSum(); s.add(n, over: d); return s }
        #expect(LayerSplit.split(26, exact: [share(2175, over: 100), share(450, over: 100)]) == [22, 4])
        #expect(LayerSplit.split(3, exact: [share(1, over: 2), share(1, over: 2), share(1, over: 2), share(3, over: 2)]) == [1, 1, 0, 1])  // ties: the earlier layers
        #expect(LayerSplit.split(0, exact: [share(0, over: 1)]) == [0])
        #expect(LayerSplit.split(10, exact: []) == [])
    }
}

/// Japan's qualified-invoice system: tax rounded once per rate on the invoice, and truncation.
@Suite struct PerRateRoundingTests {
    static func rules(_ rounding: String) throws -> RuleSet {
        try Fixture.rules("""
        rounding: \(rounding)
        tax:
          layers:
            - { id: consumption, label: Consumption tax, zone: { country: JP }, rate: 10%, shipping: taxable, categories: { food: 8% } }
        shipping_methods:
          - { id: takkyubin, label: Takkyubin, price: 0 }
        """, head: "version: 1\npayee: Sakura Tea\ncurrencies: [JPY]\n")
    }

    /// ¥1,005 of food (8 %: 80.4) and ¥1,804 of other goods (10 %: 180.4).
    static let request = QuoteRequest(
        merchant: nil, trigger: .addressChanged, currency: .jpy,
        address: PartialAddress(city: "Shibuya", state: "13", postalCode: "150-0002", countryCode: "JP"),
        cart: Cart(items: [
            CartItem(id: "tea", label: "Sencha", quantity: 1, unitAmount: try! Money(parsing: "1005", currency: .jpy), taxCategory: "food"),
            CartItem(id: "cup", label: "Cup", quantity: 1, unitAmount: try! Money(parsing: "1804", currency: .jpy)),
        ]),
        now: Fixture.instant("2026-10-10T03:00:00Z"))

    static func tax(_ rounding: String) throws -> String? {
        try rules(rounding).quote(request).update?.summaryItems.lines.first { $0.hasPrefix("tax") }
    }

    @Test func eachRateIsRoundedOnceOnTheInvoice() throws {
        #expect(try Self.tax("{ mode: down, level: rate }") == "tax Tax 260")       // 80 + 180
        #expect(try Self.tax("{ mode: half_up, level: rate }") == "tax Tax 260")
    }

    @Test func roundingOnceAcrossBothRatesGivesOneYenMore() throws {
        #expect(try Self.tax("{ mode: half_down, level: total }") == "tax Tax 261")  // 260.8
    }

    @Test func downDropsTheFraction() {
        #expect(RoundingMode.down.divide(2608, by: 10) == 260)
        #expect(RoundingMode.down.divide(-2608, by: 10) == -260)
        #expect(RoundingMode.down.divide(2600, by: 10) == 260)
        #expect(RoundingMode.halfUp.divide(2605, by: 10) == 261)
    }
}

/// `shipping: follow_goods`: the shipping charge is apportioned to the goods by value and taxed at
/// each line's rate.
@Suite struct ShippingFollowsGoodsTests {
    static let rules = try! Fixture.rules("""
    tax:
      layers:
        - { id: vat, label: VAT, zone: { country: US }, rate: 20%, shipping: follow_goods, categories: { books: 0% } }
    shipping_methods:
      - { id: post, label: Post, price: 10.00 }
    """)

    static func tax(_ items: [CartItem]) -> String? {
        rules.quote(Fixture.request(cart: Cart(items: items), selected: nil)).update?.summaryItems.lines.first { $0.hasPrefix("tax") }
    }

    static func item(_ id: String, _ amount: String, _ category: String? = nil) -> CartItem {
        CartItem(id: id, label: id, quantity: 1, unitAmount: Fixture.usd(amount), taxCategory: category)
    }

    @Test func aMixedCartTaxesShippingAtEachLinesRateByValue() {
        // Goods 60.00 × 20 % = 12.00; shipping 10.00: 6.00 follows the mug (1.20), 4.00 the book (0).
        #expect(Self.tax([Self.item("mug", "60.00"), Self.item("book", "40.00", "books")]) == "tax Tax 13.20")
    }

    @Test func zeroRatedGoodsCarryZeroRatedShipping() {
        #expect(Self.tax([Self.item("book", "40.00", "books")]) == "tax Tax 0.00")
    }

    @Test func standardRatedGoodsCarryStandardRatedShipping() {
        #expect(Self.tax([Self.item("mug", "60.00")]) == "tax Tax 14.00")   // (60 + 10) × 20 %
    }
}
