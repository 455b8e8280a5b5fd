import Testing
@testable import ShippingRules

/// `trigger: payment_authorized`: the selected method priced at the full address, or refused, never
/// another method in its place.
@Suite("The final check at authorization")
struct FinalCheckTests {
    /// ZIP 95014 crosses a district line in these rules: its ZIP+4 codes 95014-3xxx lie in a district
    /// with a tax of its own, which the shortened code the sheet saw cannot show; and a courier that
    /// serves 95014 except its 95014-9xxx codes.
    static let districtRules = """
        version: 1
        merchant: acme
        payee: ACME Inc.
        currencies: [USD]
        rounding: { mode: half_up, level: line }
        zones:
          - { id: us-50, country: US, exclude_states: [PR, GU, VI, AS, MP] }
          - { id: district-95014-3, country: US, state: CA, postal_codes: ["95014-3*"] }
          - { id: courier-area, country: US, state: CA, postal_codes: ["95014*"], exclude_postal_codes: ["95014-9*"] }
        tax:
          summary: combined
          layers:
            - { id: ca, label: CA sales tax, zone: { country: US, state: CA }, rate: 7.25%, shipping: exempt }
            - { id: district, label: District tax, zone: district-95014-3, rate: 1%, shipping: exempt }
        shipping_methods:
          - { id: standard, label: Standard shipping, zones: [us-50], price: { base: 5.00, free_over: 100.00 } }
          - { id: courier, label: Local courier, zones: [courier-area], price: 9.00 }
        """

    static let district = try! RuleSet.load(yaml: districtRules, fileName: "district.yaml")

    static func address(_ postalCode: String) -> PartialAddress {
        PartialAddress(city: "Cupertino", state: "CA", postalCode: postalCode, countryCode: "US")
    }

    @Test func theSelectedMethodIsPricedAloneWithItsBreakdown() throws {
        let update = try #require(Fixture.acme.quote(Fixture.request(selected: "express", trigger: .paymentAuthorized)).update)
        #expect(update.shippingMethods.map(\.id) == ["express"])
        #expect(update.summaryItems.lines == [
            "subtotal Subtotal 50.00", "discount Promo -5.00", "shipping Shipping 12.00", "tax Tax 3.94", "total ACME Inc. 60.94",
        ])
        #expect(update.summaryItems == update.shippingMethods[0].summaryItems)
        #expect(update.errors.isEmpty)
    }

    @Test func theFullPostalCodeCanLandInAnotherTaxDistrict() throws {
        let shortened = try #require(Self.district.quote(Fixture.request(address: Self.address("95014"))).update)
        #expect(shortened.summaryItems.lines.suffix(2) == ["tax Tax 3.26", "total ACME Inc. 53.26"])   // 45.00 × 7.25 %
        let final = try #require(Self.district.quote(Fixture.request(address: Self.address("95014-3101"), trigger: .paymentAuthorized)).update)
        #expect(final.shippingMethods.map(\.id) == ["standard"])
        #expect(final.summaryItems.lines == [
            "subtotal Subtotal 50.00", "discount Promo -5.00", "shipping Shipping 5.00", "tax Tax 3.71", "total ACME Inc. 53.71",
        ])                                                                                            // 45.00 × 8.25 %
        let sameDistrict = try #require(Self.district.quote(Fixture.request(address: Self.address("95014-1234"), trigger: .paymentAuthorized)).update)
        #expect(sameDistrict.summaryItems.lines.last == "total ACME Inc. 53.26")
    }

    @Test func aFullUKPostcodeMeetsWhatItsOutwardCodeCannot() throws {
        let rules = try Fixture.rules("""
            tax: { layers: [{ id: vat, label: VAT, zone: { country: GB }, rate: 20%, shipping: follow_goods },
                            { id: palace, label: Palace levy, zone: { country: GB, postal_codes: ["SW1A 1*"] }, rate: 1%, shipping: taxable }] }
            shipping_methods:
              - { id: courier, label: Courier, price: 6.00 }
            """, head: "version: 1\npayee: Shop\ncurrencies: [GBP]\n")
        func total(_ postcode: String, _ trigger: QuoteTrigger) throws -> String? {
            let request = QuoteRequest(trigger: trigger, currency: .gbp, address: PartialAddress(postalCode: postcode, countryCode: "GB"),
                                       cart: Cart(items: [CartItem(id: "a", label: "A", quantity: 1, unitAmount: try Money(parsing: "40.00", currency: .gbp))]),
                                       selectedShippingMethodID: "courier", now: Fixture.instant("2026-10-10T12:00:00Z"))
            return rules.quote(request).update?.summaryItems.last?.amount.decimalString
        }
        #expect(try total("SW1A", .addressChanged) == "55.20")            // (40.00 + 6.00) × 1.20
        #expect(try total("SW1A 1AA", .paymentAuthorized) == "55.66")     // and 1 % of 46.00
        #expect(try total("SW1A 2AA", .paymentAuthorized) == "55.20")
    }

    @Test func aMethodNoLongerOfferedIsRefusedNeverReplaced() throws {
        let sheet = try #require(Self.district.quote(Fixture.request(address: Self.address("95014"), selected: "courier")).update)
        #expect(sheet.shippingMethods.map(\.id) == ["courier", "standard"])
        #expect(sheet.summaryItems.lines.last == "total ACME Inc. 57.26")
        let final = Self.district.quote(Fixture.request(address: Self.address("95014-9001"), selected: "courier", trigger: .paymentAuthorized))
        #expect(final == .unserviceable([ShippingError(
            code: "SHIPPING_METHOD_UNAVAILABLE",
            message: "The selected shipping method is not available for this address. Choose another method.")]))
        // An address change in its place would have fallen back to the first method still offered.
        let change = try #require(Self.district.quote(Fixture.request(address: Self.address("95014-9001"), selected: "courier")).update)
        #expect(change.shippingMethods.map(\.id) == ["standard"])
    }

    @Test func aMethodOfferedOnlyAtSomeHoursIsCheckedAtTheAuthorization() throws {
        // same-day: Bay Area, before 14:00 warehouse time on a weekday; 2026-10-10 is a Saturday.
        let monday = try #require(Fixture.acme.quote(Fixture.request(selected: "same-day", trigger: .paymentAuthorized,
                                                                     at: "2026-10-12T17:00:00Z")).update)
        #expect(monday.shippingMethods.map(\.id) == ["same-day"])
        #expect(monday.summaryItems.lines.suffix(3) == ["shipping Shipping 15.00", "tax Tax 3.94", "total ACME Inc. 63.94"])
        #expect(Fixture.acme.quote(Fixture.request(selected: "same-day", trigger: .paymentAuthorized)).errorCodes
                == ["SHIPPING_METHOD_UNAVAILABLE"])
    }

    @Test func withoutASelectionThereIsNothingToCharge() {
        #expect(Fixture.acme.quote(Fixture.request(selected: nil, trigger: .paymentAuthorized)).errorCodes == ["SHIPPING_METHOD_UNAVAILABLE"])
        #expect(Fixture.acme.quote(Fixture.request(selected: "pigeon", trigger: .paymentAuthorized)).errorCodes == ["SHIPPING_METHOD_UNAVAILABLE"])
    }

    @Test func anUnserviceableAddressAnswersAsForAnAddressChange() {
        let paris = PartialAddress(city: "Paris", postalCode: "75001", countryCode: "FR")
        #expect(Fixture.acme.quote(Fixture.request(address: paris, trigger: .paymentAuthorized)).errorCodes == ["COUNTRY_NOT_SUPPORTED"])
        let badZip = Self.address("9501")
        #expect(Fixture.acme.quote(Fixture.request(address: badZip, trigger: .paymentAuthorized)).errorCodes == ["POSTAL_CODE_INVALID"])
        let nowhere = PartialAddress(city: "Austin", state: "TX", postalCode: "78701", countryCode: "US")
        #expect(Self.district.quote(Fixture.request(address: nowhere, selected: "courier", trigger: .paymentAuthorized)).errorCodes
                == ["SHIPPING_METHOD_UNAVAILABLE"])
    }

    @Test func theSheetOpenedKeepDoesNotApplyAtAuthorization() throws {
        // us-acme keeps the sheet on sheet_opened; the final check always answers with a breakdown.
        #expect(Fixture.acme.quote(Fixture.request(trigger: .sheetOpened)) == .keep)
        let final = try #require(Fixture.acme.quote(Fixture.request(trigger: .paymentAuthorized)).update)
        #expect(final.summaryItems.lines.last == "total ACME Inc. 53.94")
    }

    @Test func aTriggersConditionIsJudgedAsForAnAddressChange() throws {
        let rules = try Fixture.rules("""
            shipping_methods:
              - { id: standard, label: Standard, price: 5.00 }
              - { id: later, label: Later, price: 7.00, when: { triggers: [address_changed] } }
              - { id: first, label: First, price: 3.00, when: { triggers: [sheet_opened] } }
            """)
        let address = PartialAddress(state: "OR", postalCode: "97201", countryCode: "US")
        let later = try #require(rules.quote(Fixture.request(address: address, selected: "later", trigger: .paymentAuthorized)).update)
        #expect(later.shippingMethods.map(\.id) == ["later"])
        #expect(later.summaryItems.lines.suffix(2) == ["shipping Shipping 7.00", "total Shop 52.00"])
        #expect(rules.quote(Fixture.request(address: address, selected: "first", trigger: .paymentAuthorized)).errorCodes
                == ["SHIPPING_METHOD_UNAVAILABLE"])
    }

    @Test func explainSaysWhatTheFinalCheckFound() {
        let request = Fixture.request(address: Self.address("95014-9001"), selected: "courier", trigger: .paymentAuthorized)
        let trace = Self.district.explain(request).trace
        #expect(trace.last == "final check: selected method courier is not offered at this address: SHIPPING_METHOD_UNAVAILABLE")
    }
}
