import Testing
@testable import ShippingRules

@Suite("rules check warnings")
struct RulesLintTests {
    private func warnings(_ body: String) throws -> [RulesWarning] {
        try Fixture.rules(body).warnings
    }

    @Test func fullUKAndCanadianPostcodesAreFlagged() throws {
        let found = try warnings("""
        zones:
          - { id: palace, country: GB, postal_codes: ["SW1A 1AA", "SW1A*", "EC1A1*"] }
          - { id: toronto, country: CA, postal_codes: ["M5V 3L9", "M5V*", "M5V1..M5V9"] }
        shipping_methods: [{ id: s, label: S, zones: [palace, toronto], price: 5.00 }]

        """)
        #expect(found.map(\.kind) == Array(repeating: .shortenedPostcode, count: 4))
        #expect(found[0].description == #"rules.yaml:5:5: warning: zones[0].postal_codes: "SW1A1AA" is a full GB postcode; Apple Pay sends only the outward code (like SW1A) before payment, so it never matches there; write a prefix like "SW1A*" [shortened-postcode]"#)
        #expect(found[1].message.hasPrefix(#"prefix "EC1A1*" is longer than the outward code"#))
        #expect(found[2].message.hasPrefix(#""M5V3L9" is a full CA postcode"#))
        #expect(found[3].message.hasPrefix(#"range "M5V1..M5V9" compares 4 characters"#))
    }

    @Test func aFullPostcodeRegexInServiceabilityRefusesEveryShortenedCode() throws {
        let found = try warnings("""
        serviceability:
          - when: { country: GB, postal_code_not_matching: '^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$' }
            error: { code: POSTAL_CODE_INVALID, message: Enter a full postcode }
        shipping_methods: [{ id: s, label: S, price: 5.00 }]

        """)
        #expect(found.count == 1)
        #expect(found.first?.field == "serviceability[0].when.postal_code_not_matching")
        #expect(found.first?.message.contains("refuses every Apple Pay address in GB") == true)
    }

    @Test func zipPlusFourNeedsStreetLevelDetail() throws {
        let found = try warnings("zones: [{ id: block, country: US, postal_codes: [\"95014-2083\"] }]\nshipping_methods: [{ id: s, label: S, zones: [block], price: 5.00 }]\n")
        #expect(found.map(\.kind) == [.streetLevel])
    }

    @Test func streetKeysAreRefusedWithTheReason() {
        do {
            _ = try Fixture.rules("zones: [{ id: z, country: US, street: Main St }]\nshipping_methods: [{ id: s, label: S, price: 5.00 }]\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.field == "zones[0].street")
            #expect(error.message.contains("street lines never reach ShipQuote"))
        }
    }

    @Test func unreachableServiceabilityRulesMethodsAndLayers() throws {
        let found = try warnings("""
        serviceability:
          - when: { country_not_in: [US] }
            error: { code: COUNTRY_NOT_SUPPORTED, message: US only }
          - when: { country: CA }
            error: { code: COUNTRY_NOT_SUPPORTED, message: Not Canada }
          - when: { country: US, state: PR }
            error: { code: STATE_NOT_SUPPORTED, message: No }
          - when: { country: US, state: PR, city_in: [San Juan] }
            error: { code: STATE_NOT_SUPPORTED, message: No }
          - when: { country: [US], country_not_in: [US] }
            error: { code: STATE_NOT_SUPPORTED, message: Never }
        tax:
          layers: [{ id: gst, zone: { country: CA }, rate: 5% }]
        shipping_methods:
          - { id: s, label: S, zones: [{ country: US }], price: 5.00 }
          - { id: canada, label: Canada, zones: [{ country: CA }], price: 5.00 }

        """)
        #expect(found.map(\.field) == ["serviceability[1]", "serviceability[3]", "serviceability[4]", "tax.layers[0]", "shipping_methods[1]"])
        #expect(found[0].message == "never applies: earlier rules already refuse every address in CA")
        #expect(found[1].message == "never applies: serviceability[2] holds whenever this rule does and answers first")
        #expect(found[2].message == "never applies: its country conditions exclude each other")
        #expect(found[3].kind == .unreachableTaxLayer)
        #expect(found[4].message == "method canada is never offered: serviceability refuses every address in CA first")
    }

    @Test func methodsTheSheetCannotTellApartAndTaxChargedTwice() throws {
        let found = try warnings("""
        tax:
          layers:
            - { id: a, zone: { country: US, state: CA }, rate: 7% }
            - { id: b, zone: { country: US, state: CA }, rate: 1% }
            - { id: c, zone: { country: US, state: NY }, rate: 4% }
        shipping_methods:
          - { id: s1, label: Standard, zones: [{ country: US, states: [CA, OR] }], price: 5.00 }
          - { id: s2, label: Standard, zones: [{ country: US, state: OR }], price: 6.00 }
          - { id: s3, label: Standard, zones: [{ country: US, state: NY }], price: 6.00 }

        """)
        #expect(found.map(\.kind) == [.overlappingTaxLayers, .overlappingMethods])
        #expect(found[0].message.hasPrefix("tax layers a and b have the same zone"))
        #expect(found[1].message.hasPrefix("methods s1 and s2 are both labelled \"Standard\""))
    }

    @Test func checkReportsEachFilesErrorAndTheWarnings() throws {
        let report = RulesCheck.check(path: "/nonexistent")
        #expect(!report.passed)
        #expect(report.errors.first?.description == "/nonexistent: no such file or directory")
    }
}
