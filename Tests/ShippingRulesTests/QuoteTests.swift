import Testing
@testable import ShippingRules

@Suite("Quoting with the US example rules")
struct QuoteTests {
    @Test func theContractExampleGetsTheContractBreakdown() throws {
        let update = try #require(Fixture.acme.quote(Fixture.request()).update)
        #expect(update.summaryItems.lines == [
            "subtotal Subtotal 50.00", "discount Promo -5.00", "shipping Shipping 5.00", "tax Tax 3.94", "total ACME Inc. 53.94",
        ])
        #expect(update.shippingMethods.map(\.id) == ["standard", "express"])     // same-day: not on Saturdays
        let standard = update.shippingMethods[0]
        #expect(standard.detail == "Arrives in 3-5 business days")
        #expect(standard.deliveryEstimate == DeliveryEstimate(from: Fixture.date("2026-10-15"), to: Fixture.date("2026-10-19")))
        let express = update.shippingMethods[1]
        #expect(express.amount.decimalString == "12.00")                          // 600 g: first weight tier
        #expect(express.summaryItems.last?.amount.decimalString == "60.94")
        #expect(express.deliveryEstimate == DeliveryEstimate(from: Fixture.date("2026-10-13"), to: Fixture.date("2026-10-14")))
        #expect(update.errors.isEmpty)
    }

    @Test func theSelectedMethodLeadsAndOwnsTheTopLevelBreakdown() throws {
        let update = try #require(Fixture.acme.quote(Fixture.request(selected: "express")).update)
        #expect(update.shippingMethods.map(\.id) == ["express", "standard"])
        #expect(update.summaryItems.last?.amount.decimalString == "60.94")
        #expect(update.summaryItems == update.shippingMethods[0].summaryItems)
    }

    @Test func aSelectionNoLongerOfferedFallsBackToTheFirst() throws {
        let update = try #require(Fixture.acme.quote(Fixture.request(selected: "same-day")).update)
        #expect(update.shippingMethods.first?.id == "standard")
        #expect(update.summaryItems.last?.amount.decimalString == "53.94")
    }

    @Test func sameDayIsOfferedInTheBayAreaBeforeTheCutoffOnly() throws {
        let morning = try #require(Fixture.acme.quote(Fixture.request(at: "2026-10-12T17:00:00Z")).update)   // Mon 10:00 PDT
        let sameDay = try #require(morning.shippingMethods.first { $0.id == "same-day" })
        #expect(sameDay.amount.decimalString == "15.00")
        #expect(sameDay.deliveryEstimate == DeliveryEstimate(from: Fixture.date("2026-10-12"), to: Fixture.date("2026-10-12")))
        let late = try #require(Fixture.acme.quote(Fixture.request(at: "2026-10-12T21:00:00Z")).update)       // Mon 14:00 PDT
        #expect(!late.shippingMethods.contains { $0.id == "same-day" })
        let la = PartialAddress(city: "Los Angeles", state: "CA", postalCode: "90012", countryCode: "US")
        let elsewhere = try #require(Fixture.acme.quote(Fixture.request(address: la, at: "2026-10-12T17:00:00Z")).update)
        #expect(!elsewhere.shippingMethods.contains { $0.id == "same-day" })
    }

    @Test func stackedTaxLayersApplyOnlyWhereTheirZoneHolds() throws {
        let la = PartialAddress(city: "Los Angeles", state: "CA", postalCode: "90012", countryCode: "US")
        let update = try #require(Fixture.acme.quote(Fixture.request(address: la)).update)
        #expect(update.summaryItems.lines.suffix(2) == ["tax Tax 3.26", "total ACME Inc. 53.26"])   // 45.00 × 7.25 % only
        let oregon = PartialAddress(state: "OR", postalCode: "97201", countryCode: "US")
        let noTax = try #require(Fixture.acme.quote(Fixture.request(address: oregon)).update)
        #expect(noTax.summaryItems.lines == ["subtotal Subtotal 50.00", "discount Promo -5.00", "shipping Shipping 5.00", "total ACME Inc. 50.00"])
    }

    @Test func freeShippingStartsAtTheThresholdAfterDiscounts() throws {
        func standard(_ cart: Cart) throws -> String {
            let request = Fixture.request(address: PartialAddress(state: "OR", postalCode: "97201", countryCode: "US"), cart: cart)
            return try #require(Fixture.acme.quote(request).update?.shippingMethods.first { $0.id == "standard" }).amount.decimalString
        }
        #expect(try standard(Fixture.cart("100.00")) == "0.00")
        #expect(try standard(Fixture.cart("99.99")) == "5.00")
        #expect(try standard(Fixture.cart("105.00", discount: "-5.00")) == "0.00")
        #expect(try standard(Fixture.cart("104.99", discount: "-5.00")) == "5.00")
    }

    @Test func remoteStatesPayTheSurchargeAndLoseExpress() throws {
        let alaska = PartialAddress(city: "Anchorage", state: "AK", postalCode: "99501", countryCode: "US")
        let update = try #require(Fixture.acme.quote(Fixture.request(address: alaska)).update)
        #expect(update.shippingMethods.map(\.id) == ["standard"])
        #expect(update.shippingMethods[0].amount.decimalString == "15.00")
    }

    @Test func serviceabilityAnswersWithTheFirstMatchingRule() {
        let canada = PartialAddress(city: "Toronto", state: "ON", postalCode: "M5V", countryCode: "CA")
        #expect(Fixture.acme.quote(Fixture.request(address: canada))
                == .unserviceable([ShippingError(code: "COUNTRY_NOT_SUPPORTED", message: "We ship to the United States only.")]))
        let shortZip = PartialAddress(city: "Cupertino", state: "CA", postalCode: "9501", countryCode: "US")
        #expect(Fixture.acme.quote(Fixture.request(address: shortZip)).errorCodes == ["POSTAL_CODE_INVALID"])
        let puertoRico = PartialAddress(state: "PR", postalCode: "00901", countryCode: "US")
        #expect(Fixture.acme.quote(Fixture.request(address: puertoRico)).errorCodes == ["STATE_NOT_SUPPORTED"])
    }

    @Test func noMethodForAPartialAddressAnswersWithTheFilesMessage() throws {
        // No state, quoted without it (the example itself asks for it): every zone here needs one, so nothing can be offered.
        let text = try String(contentsOfFile: Fixture.examplePath("us-acme.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "missing_state: ask", with: "missing_state: quote_without")
        let rules = try RuleSet.load(yaml: text, fileName: "us-acme.yaml")
        let partial = PartialAddress(postalCode: "95014", countryCode: "US")
        let explanation = rules.explain(Fixture.request(address: partial))
        #expect(explanation.result == .unserviceable([ShippingError(code: "SHIPPING_UNAVAILABLE", message: "We can't deliver to this address yet.")]))
        #expect(explanation.trace.contains { $0.contains("method standard not offered") && $0.contains("no state in the address") })
    }

    @Test func sheetOpenedKeepsTheSessionsMethods() {
        #expect(Fixture.acme.quote(Fixture.request(trigger: .sheetOpened)) == .keep)
    }

    @Test func aCurrencyTheRulesDoNotPriceIsRejected() {
        let result = Fixture.acme.quote(Fixture.request(cart: Cart(subtotal: try! Money(parsing: "10", currency: .eur)), currency: .eur))
        #expect(result == .rejected(QuoteRejection(code: "CURRENCY_NOT_PRICED", message: "the rules price USD, not EUR")))
    }

    @Test func aCartInAnotherCurrencyIsRejectedNotAdded() {
        let cart = Cart(items: [CartItem(id: "a", label: "A", quantity: 1, unitAmount: try! Money(parsing: "10", currency: .eur))])
        guard case .rejected(let rejection) = Fixture.acme.quote(Fixture.request(cart: cart)) else { Issue.record("expected a rejection"); return }
        #expect(rejection.code == "CURRENCY_MISMATCH")
    }

    @Test func anItemlessCartQuotesOnItsSubtotal() throws {
        let update = try #require(Fixture.acme.quote(Fixture.request(cart: Cart(subtotal: Fixture.usd("40.00")))).update)
        #expect(update.summaryItems.lines == ["subtotal Subtotal 40.00", "shipping Shipping 5.00", "tax Tax 3.50", "total ACME Inc. 48.50"])
    }
}

@Suite("Tax rounding and layers")
struct TaxTests {
    private func rules(level: String, summary: String = "combined", shipping: String = "exempt") throws -> RuleSet {
        try Fixture.rules("""
        rounding: { mode: half_up, level: \(level) }
        tax:
          summary: \(summary)
          layers:
            - { id: state, label: State tax, zone: { country: US }, rate: 7.25%, shipping: \(shipping) }
            - { id: city, label: City tax, zone: { country: US, city: [Montréal, "San José"] }, rate: 1.125% }
        shipping_methods: [{ id: flat, label: Flat, price: 10.00 }]

        """)
    }

    private let threeCheapItems = Fixture.cart("1.00", "1.00", "1.00")
    private let us = PartialAddress(countryCode: "US")

    @Test func lineAndTotalRoundingGiveDifferentCents() throws {
        let line = try #require(try rules(level: "line").quote(Fixture.request(address: us, cart: threeCheapItems)).update)
        let total = try #require(try rules(level: "total").quote(Fixture.request(address: us, cart: threeCheapItems)).update)
        #expect(line.summaryItems.lines.suffix(2) == ["tax Tax 0.21", "total Shop 13.21"])     // 3 × round(0.0725)
        #expect(total.summaryItems.lines.suffix(2) == ["tax Tax 0.22", "total Shop 13.22"])    // round(0.2175)
    }

    @Test func perLayerSummaryShowsEachLayerAndCitiesFoldCaseAndAccents() throws {
        let sanJose = PartialAddress(city: "SAN JOSE", countryCode: "US")
        let update = try #require(try rules(level: "line", summary: "per_layer").quote(Fixture.request(address: sanJose, cart: Fixture.cart("80.00"))).update)
        #expect(update.summaryItems.lines == [
            "subtotal Subtotal 80.00", "shipping Shipping 10.00", "tax-state State tax 5.80", "tax-city City tax 0.90", "total Shop 96.70",
        ])
    }

    @Test func taxableShippingIsTaxedAndDiscountsLowerTheBase() throws {
        let update = try #require(try rules(level: "line", shipping: "taxable")
            .quote(Fixture.request(address: us, cart: Fixture.cart("30.00", "10.00", discount: "-10.00"))).update)
        // Items 40.00 − 10.00 = 30.00 taxable (22.50 + 7.50), plus shipping 10.00: 0.0725 × (22.50, 7.50, 10.00) = 1.63 + 0.54 + 0.73.
        #expect(update.summaryItems.lines == [
            "subtotal Subtotal 40.00", "discount Promo -10.00", "shipping Shipping 10.00", "tax Tax 2.90", "total Shop 42.90",
        ])
    }

    @Test func aCategoryRateAppliesBelowItsUnitThreshold() throws {
        let set = try Fixture.rules("""
        tax:
          layers:
            - { id: ny, zone: { country: US, state: NY }, rate: 4%, categories: { apparel: { rate: 0%, when_unit_below: 110.00 } } }
        shipping_methods: [{ id: flat, label: Flat, price: 0.00 }]

        """)
        let ny = PartialAddress(state: "NY", countryCode: "US")
        func tax(_ unit: String) throws -> String? {
            let cart = Cart(items: [CartItem(id: "a", label: "Shirt", quantity: 1, unitAmount: Fixture.usd(unit), taxCategory: "apparel")])
            return try #require(set.quote(Fixture.request(address: ny, cart: cart, selected: nil)).update).summaryItems.first { $0.id == "tax" }?.amount.decimalString
        }
        #expect(try tax("109.99") == "0.00")
        #expect(try tax("110.00") == "4.40")
    }
}

@Suite("Postal codes and zones")
struct ZoneTests {
    private let set: RuleSet = try! Fixture.rules("""
    zones:
      - { id: london, country: GB, postal_codes: ["SW1A*", "EC1*"] }
      - { id: downtown-toronto, country: CA, postal_codes: ["M5V*", "M5H*"] }
      - { id: palace, country: GB, postal_codes: ["SW1A 1AA"] }
      - { id: east-bay, country: US, postal_codes: ["945*..947*"] }
    shipping_methods:
      - { id: courier, label: Courier, zones: [london, downtown-toronto, east-bay], price: 7.00 }
      - { id: royal, label: Royal, zones: [palace], price: 9.00 }

    """, head: "version: 1\npayee: Shop\ncurrencies: [USD]\n")

    private func methods(_ address: PartialAddress) -> [String] {
        set.quote(Fixture.request(address: address, cart: Fixture.cart("10.00"), selected: nil)).update?.shippingMethods.map(\.id) ?? []
    }

    @Test func shortenedPostcodesMatchPrefixRules() {
        #expect(methods(PartialAddress(postalCode: "SW1A", countryCode: "GB")) == ["courier"])
        #expect(methods(PartialAddress(postalCode: "sw1a", countryCode: "gb")) == ["courier"])
        #expect(methods(PartialAddress(postalCode: "M5V", countryCode: "CA")) == ["courier"])
    }

    @Test func fullPostcodesMatchExactRulesWithoutCaringForSpaces() {
        #expect(methods(PartialAddress(postalCode: "SW1A1AA", countryCode: "GB")) == ["courier", "royal"])
    }

    @Test func rangesCompareTheLeadingDigits() {
        #expect(methods(PartialAddress(postalCode: "94612", countryCode: "US")) == ["courier"])
        #expect(methods(PartialAddress(postalCode: "94499", countryCode: "US")) == [])
        #expect(methods(PartialAddress(postalCode: "94799", countryCode: "US")) == ["courier"])
        #expect(methods(PartialAddress(postalCode: "94800", countryCode: "US")) == [])
    }

    @Test func aMissingPostcodeMatchesNoPostalRule() {
        #expect(methods(PartialAddress(countryCode: "GB")) == [])
    }
}

@Suite("Method details")
struct DetailTests {
    @Test func placeholdersAreFilledWithTransitDaysAndDates() throws {
        let set = try Fixture.rules("""
        warehouse: { time_zone: UTC }
        shipping_methods:
          - { id: s, label: S, detail: "{min}-{max} days, {from} to {to}", price: 5.00, transit_days: { min: 1, max: 2 } }

        """)
        let update = try #require(set.quote(Fixture.request(address: PartialAddress(countryCode: "US"), selected: nil, at: "2026-10-12T09:00:00Z")).update)
        #expect(update.shippingMethods[0].detail == "1-2 days, 2026-10-13 to 2026-10-14")
    }

    @Test func anUnknownPlaceholderIsALoadError() {
        #expect(throws: RulesError.self) {
            try Fixture.rules("shipping_methods: [{id: s, label: S, detail: \"in {days}\", price: 5.00}]\n")
        }
    }
}
