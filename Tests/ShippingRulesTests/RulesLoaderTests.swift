import Testing
@testable import ShippingRules

@Suite("Loading rules files: every error names file, line, column and field")
struct RulesLoaderTests {
    private func error(_ yaml: String) -> RulesError? { Fixture.loadError(yaml) }

    private let head = "version: 1\npayee: Shop\ncurrencies: [USD]\n"

    @Test func aBadAmountPointsAtItsValue() {
        let yaml = head + """
        shipping_methods:
          - id: standard
            label: Standard
            price: { base: 5.00 }
          - id: express
            label: Express
            price:
              base: abc

        """
        #expect(error(yaml)?.description
                == #"rules.yaml:11:13: shipping_methods[1].price.base: expected a decimal amount like 5.00, found "abc""#)
    }

    @Test func aTypoInAKeyIsAnErrorWithASuggestion() {
        let yaml = head + "shipping_methods:\n  - id: s\n    label: S\n    price: { base: 5.00, fre_over: 100.00 }\n"
        let e = error(yaml)
        #expect(e?.kind == .unknownKey)
        #expect(e?.description == "rules.yaml:7:26: shipping_methods[0].price.fre_over: unknown key 'fre_over'; did you mean 'free_over'?")
    }

    @Test func aMissingRequiredKeyNamesIt() {
        let e = error("version: 1\ncurrencies: [USD]\nshipping_methods: [{id: s, label: S, price: 5.00}]\n")
        #expect(e?.kind == .missingKey)
        #expect(e?.description == "rules.yaml:1:1: payee: missing; expected the grand total's label, like ACME Inc.")
    }

    @Test func amountsFinerThanTheCurrencyAreRefused() {
        let e = error(head + "shipping_methods: [{id: s, label: S, price: {base: 5.005}}]\n")
        #expect(e?.description == #"rules.yaml:4:52: shipping_methods[0].price.base: expected at most 2 decimals for USD, found "5.005""#)
    }

    @Test func aRateMustBeAPercentage() {
        let yaml = head + "tax:\n  layers:\n    - { id: ca, zone: { country: US }, rate: seven }\nshipping_methods: [{id: s, label: S, price: 5.00}]\n"
        #expect(error(yaml)?.description == #"rules.yaml:6:46: tax.layers[0].rate: expected a rate like 7.25%, found "seven""#)
    }

    @Test func anUnknownZoneIdSuggestsTheNearestOne() {
        let yaml = head + "zones: [{id: bay-area, country: US}]\nshipping_methods: [{id: s, label: S, zones: [bay-are], price: 5.00}]\n"
        let e = error(yaml)
        #expect(e?.kind == .unknownReference)
        #expect(e?.description == "rules.yaml:5:46: shipping_methods[0].zones[0]: no zone with id 'bay-are'; did you mean 'bay-area'?")
    }

    @Test func duplicateMethodIdsAreRefused() {
        let e = error(head + "shipping_methods:\n  - {id: s, label: S, price: 5.00}\n  - {id: s, label: T, price: 6.00}\n")
        #expect(e?.description == "rules.yaml:6:5: shipping_methods[1]: shipping method id 's' is used twice; ids must be unique")
    }

    @Test func yamlSyntaxErrorsCarryTheirPosition() {
        let e = error(head + "shipping_methods: [{id: s, label: S\n")
        #expect(e?.kind == .syntax)
        #expect(e?.file == "rules.yaml")
        #expect(e?.line == 5)
    }

    @Test func aBadCutoffTimeSaysWhatIsExpected() {
        let yaml = head + "warehouse: {time_zone: America/Los_Angeles, cutoff: \"2pm\"}\nshipping_methods: [{id: s, label: S, price: 5.00}]\n"
        #expect(error(yaml)?.description
                == #"rules.yaml:4:53: warehouse.cutoff: expected a time like "14:00" (HH:MM, 24-hour), found "2pm""#)
    }

    @Test func anUnknownTimeZoneIsRefused() {
        let yaml = head + "warehouse: {time_zone: Mars/Olympus}\nshipping_methods: [{id: s, label: S, price: 5.00}]\n"
        #expect(error(yaml)?.description
                == #"rules.yaml:4:24: warehouse.time_zone: expected an IANA time zone like America/Los_Angeles, found "Mars/Olympus""#)
    }

    @Test func severalCurrenciesNeedAnAmountPerCurrency() throws {
        let head = "version: 1\npayee: Shop\ncurrencies: [USD, EUR]\n"
        #expect(error(head + "shipping_methods: [{id: s, label: S, price: 5.00}]\n")?.message
                == #"this rule set prices several currencies; expected an amount per currency like {USD: …, EUR: …}, found "5.00""#)
        let set = try RuleSet.load(yaml: head + "shipping_methods: [{id: s, label: S, price: {base: {USD: 5.00, EUR: 4.50}}}]\n", fileName: "r.yaml")
        let eur = QuoteRequest(currency: .eur, address: PartialAddress(countryCode: "DE"),
                               cart: Cart(items: [CartItem(id: "a", label: "A", quantity: 1, unitAmount: try Money(parsing: "10", currency: .eur))]),
                               now: Fixture.instant("2026-10-10T12:00:00Z"))
        #expect(set.quote(eur).update?.shippingMethods.first?.amount.decimalString == "4.50")
    }

    @Test func anUnreadableFileNamesItsPath() {
        do {
            _ = try RuleSet.load(contentsOfFile: "/nonexistent/rules.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unreadable)
            #expect(error.description == "/nonexistent/rules.yaml: cannot read the file (missing or not permitted)")
        }
    }

    @Test func theExampleRulesLoad() throws {
        let set = try RuleSet.load(contentsOfFile: Fixture.examplePath("us-acme.yaml"))
        #expect(set.payee == "ACME Inc.")
        #expect(set.merchant == "acme")
        #expect(set.version.hasPrefix("sha256:") && set.version.count == 71)
        #expect(set.onSheetOpened == .keep)
    }

    @Test func anchorsAndAliasesAreResolved() throws {
        let set = try RuleSet.load(yaml: head + """
        zones: [{id: z, country: US}]
        shipping_methods:
          - {id: a, label: A, zones: [z], price: &flat {base: 5.00}}
          - {id: b, label: B, zones: [z], price: *flat}

        """, fileName: "r.yaml")
        let methods = set.quote(Fixture.request(address: PartialAddress(countryCode: "US"), selected: nil)).update?.shippingMethods
        #expect(methods?.map(\.amount.decimalString) == ["5.00", "5.00"])
    }
}
