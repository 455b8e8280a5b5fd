import Foundation
import Testing
@testable import ShippingRules

/// Issue 14 items 6 and 7: addresses are normalised before any rule runs, and the rules choose
/// what a missing field means. Each quote below answered differently before normalisation
/// (no tax for "California", Puerto Rico served, GST for "Ontario", no Okinawa surcharge).
@Suite("address normalisation and missing fields")
struct AddressNormalizationTests {
    static func address(_ shorthand: String) -> PartialAddress { AddressShorthand.parse(shorthand) }

    @Test func californiaWrittenOutPaysStateAndCountyTax() {
        let outcome = Fixture.acme.quote(Fixture.request(address: Self.address("US/California/95014/Cupertino")))
        #expect(outcome.update?.summaryItems.lines == [
            "subtotal Subtotal 50.00", "discount Promo -5.00", "shipping Shipping 5.00", "tax Tax 3.94", "total ACME Inc. 53.94",
        ])
    }

    @Test func puertoRicoWrittenOutIsRefusedAsATerritory() {
        let outcome = Fixture.acme.quote(Fixture.request(address: Self.address("US/Puerto Rico/00901/San Juan")))
        #expect(outcome.errorCodes == ["STATE_NOT_SUPPORTED"])
        let full = Fixture.acme.quote(Fixture.request(address: Self.address("United States/puerto rico/00901/San Juan")))
        #expect(full.errorCodes == ["STATE_NOT_SUPPORTED"])
    }

    static let canada = """
        tax:
          summary: per_layer
          layers:
            - { id: gst, label: GST, zone: { country: CA, exclude_states: [ON, NB, NL, NS, PE] }, rate: 5% }
            - { id: hst, label: HST, zone: { country: CA, states: [ON, NB, NL, NS, PE] }, rate: 13% }
        shipping_methods:
          - { id: standard, label: Standard, price: 5.00 }

        """

    @Test func ontarioWrittenOutPaysHSTNotGST() throws {
        let rules = try Fixture.rules(Self.canada)
        let outcome = rules.quote(Fixture.request(address: Self.address("CA/Ontario/M5V/Toronto")))
        // 45.00 (after the promo) × 13 % = 5.85; before: GST 45.00 × 5 % = 2.25, total 52.25.
        #expect(outcome.update?.summaryItems.lines == [
            "subtotal Subtotal 50.00", "discount Promo -5.00", "shipping Shipping 5.00", "tax-hst HST 5.85", "total Shop 55.85",
        ])
        let quebec = rules.quote(Fixture.request(address: Self.address("Canada/Québec/H2X/Montréal")))
        #expect(quebec.update?.summaryItems.lines.contains("tax-gst GST 2.25") == true)
    }

    @Test func fullWidthOkinawaCodePaysTheIslandSurcharge() throws {
        let rules = try RuleSet.load(contentsOfFile: Fixture.examplePath("jp-sakura.yaml"))
        let teapot = Cart(items: [CartItem(id: "teapot", label: "Teapot", quantity: 1,
                                           unitAmount: try Money(parsing: "3630", currency: .jpy), weightGrams: 800)])
        let request = Fixture.request(address: Self.address("JP/沖縄県/９００－０００１/那覇市"), cart: teapot, selected: nil,
                                      currency: .jpy, at: "2026-10-10T03:00:00Z")
        let explanation = rules.explain(request)
        let methods = explanation.result.update?.shippingMethods ?? []
        // 880 + 1100 Okinawa, prices with tax: total 3630 + 1980 = 5610. Before: POSTAL_CODE_INVALID (the full-width hyphen fails the regex).
        #expect(methods.map { "\($0.id) \($0.amount.decimalString) \($0.summaryItems.last!.amount.decimalString)" }
                == ["takkyubin 1980 5610", "nekopos 385 4015"])
        #expect(explanation.trace.contains("address normalised: state \"沖縄県\" → 47 (JP-47); postal code \"９００－０００１\" → 900-0001"))
        // The issue's own code: full-width digits, ASCII hyphen. Before: passed `\d` and was quoted without the surcharge.
        let asciiHyphen = Fixture.request(address: Self.address("JP/Okinawa/９００-０００１/Naha"), cart: teapot, selected: nil,
                                          currency: .jpy, at: "2026-10-10T03:00:00Z")
        #expect(rules.quote(asciiHyphen).update?.shippingMethods.map { "\($0.id) \($0.amount.decimalString) \($0.summaryItems.last!.amount.decimalString)" }
                == ["takkyubin 1980 5610", "nekopos 385 4015"])
    }

    @Test func theTraceSaysWhatWasNormalised() {
        let explanation = Fixture.acme.explain(Fixture.request(address: Self.address("United States/California/95014/Cupertino")))
        #expect(explanation.trace.contains("address normalised: country \"United States\" → US; state \"California\" → CA (US-CA)"))
        let coded = Fixture.acme.explain(Fixture.request())
        #expect(!coded.trace.contains { $0.hasPrefix("address normalised") })
    }

    @Test func namesAndCodes() {
        func normalized(_ text: String) -> String { AddressShorthand.format(AddressNormalizer.normalize(Self.address(text)).address) }
        #expect(normalized("us/ca/95014/x") == "US/CA/95014/x")
        #expect(normalized("UK//SW1A/London") == "GB//SW1A/London")
        #expect(normalized("United Kingdom/Scotland/IV1/x") == "GB/SCT/IV1/x")
        #expect(normalized("JP/Tokyo/100-0001/x") == "JP/13/100-0001/x")
        #expect(normalized("日本/東京/１００ー０００１/x") == "JP/13/100-0001/x")
        #expect(normalized("JP/MIE/514-0001/x") == "JP/24/514-0001/x")
        #expect(normalized("CA/Colombie-Britannique/V6B/x") == "CA/BC/V6B/x")
        #expect(normalized("US/US-NY/10001/x") == "US/NY/10001/x")
        #expect(normalized("KW/Al Asimah//x") == "KW/Al Asimah//x")             // no table for Kuwait: left as sent
        #expect(normalized("EG/١١٥١١//x") == "EG/١١٥١١//x")                     // states are not digits-folded
        #expect(AddressNormalizer.asciiPostalCode("١١٥١١") == "11511")
        // An address already in codes is not changed.
        #expect(AddressNormalizer.normalize(Fixture.cupertino).changes.isEmpty)
    }

    @Test func missingFieldsAsk() {
        #expect(Fixture.acme.quote(Fixture.request(address: PartialAddress())).errorCodes == ["COUNTRY_NOT_SUPPORTED"])
        #expect(Fixture.acme.quote(Fixture.request(address: Self.address("US/CA//Cupertino"))).errorCodes == ["POSTAL_CODE_INVALID"])
        #expect(Fixture.acme.quote(Fixture.request(address: Self.address("US//95014"))).errorCodes == ["STATE_NOT_SUPPORTED"])
        // A refused country is refused before a field is asked for.
        #expect(Fixture.acme.quote(Fixture.request(address: Self.address("MX"))).errorCodes == ["COUNTRY_NOT_SUPPORTED"])
    }

    @Test func missingFieldsAskInSomeCountriesOrQuoteWithout() throws {
        let rules = try Fixture.rules("""
            address:
              missing_postal_code: { ask_in: [US], message: "Enter a ZIP code." }
              missing_state: quote_without
            zones:
              - { id: district, country: US, postal_codes: ["950*"] }
            tax:
              layers: [{ id: district, zone: district, rate: 1% }]
            shipping_methods:
              - { id: standard, label: Standard, price: 5.00 }

            """)
        let us = rules.quote(Fixture.request(address: Self.address("US/CA//Cupertino")))
        guard case .unserviceable(let errors) = us else { Issue.record("expected unserviceable, got \(us)"); return }
        #expect(errors == [ShippingError(code: "POSTAL_CODE_INVALID", message: "Enter a ZIP code.")])
        #expect(rules.quote(Fixture.request(address: Self.address("DE/BY//Munich"))).update?.summaryItems.last?.amount.decimalString == "50.00")
        let trace = rules.explain(Fixture.request(address: Self.address("US//95014"))).trace
        #expect(trace.contains("address has no state: quoted without it"))
        #expect(rules.explain(Fixture.request(address: Self.address("DE/BY"))).trace
                .contains("address has no postal_code: quoted without it (zones that cannot hold: district)"))
    }

    @Test func unknownKeysInTheAddressSectionSuggestTheNearest() {
        let error = Fixture.loadError("version: 1\npayee: Shop\ncurrencies: [USD]\naddress: { missing_postalcode: ask, missing_state: maybe }\n"
                                      + "shipping_methods: [{ id: s, label: S, price: 5.00 }]\n")
        #expect(error?.description.contains("address.missing_postalcode: unknown key 'missing_postalcode'; did you mean 'missing_postal_code'?") == true)
        #expect(error?.description.contains("ask|quote_without") == true)
        let country = Fixture.loadError("version: 1\npayee: Shop\ncurrencies: [USD]\naddress: { missing_state: { ask_in: [UK] } }\n"
                                        + "shipping_methods: [{ id: s, label: S, price: 5.00 }]\n")
        #expect(country?.description.contains("did you mean GB?") == true)
    }
}
