import Foundation
import Testing
@testable import ShippingRules

/// Every example rule set in examples/rules runs its golden cases here, through the library
/// (the same code `shipquote rules test` calls), so a change that breaks an example fails the suite.
@Suite("Example rule sets pass their cases")
struct ExampleCasesTests {
    static let examples = ["us-acme", "uk-bramble", "jp-sakura", "kw-dana"]

    @Test(arguments: examples)
    func casesPass(_ name: String) throws {
        let rules = try RuleSet.load(contentsOfFile: Fixture.examplePath("\(name).yaml"))
        let cases = try RuleCaseFile.load(contentsOfFile: Fixture.examplePath("\(name).cases.yaml"))
        #expect(cases.cases.count >= 5)
        for result in cases.run(against: rules) {
            #expect(result.passed, "\(name): \(result)")
        }
    }

    @Test(arguments: examples)
    func examplesCheckWithoutWarnings(_ name: String) throws {
        let rules = try RuleSet.load(contentsOfFile: Fixture.examplePath("\(name).yaml"))
        #expect(rules.warnings.isEmpty, "\(rules.warnings)")
    }

    @Test func theExampleDirectoryIsOneLibraryAndSkipsCaseFiles() throws {
        let library = try RuleLibrary.load(path: Fixture.examplePath(""))
        #expect(library.ruleSets.compactMap(\.merchant) == ["sakura", "dana", "bramble", "acme"])
        let report = RulesCheck.check(path: Fixture.examplePath(""))
        #expect(report.passed && report.warnings.isEmpty)
    }

    @Test func everyExampleFileHasACaseFile() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixture.examplePath(""))
        let rules = names.filter { $0.hasSuffix(".yaml") && !RulesCheck.isCaseFile($0) }.map { String($0.dropLast(5)) }
        #expect(Set(rules) == Set(Self.examples))
    }
}

@Suite("Golden case files")
struct RuleCaseFileTests {
    private let rules: RuleSet = try! Fixture.rules("shipping_methods: [{ id: flat, label: Flat, price: 5.00 }]\n")

    private func load(_ yaml: String) throws(RulesError) -> RuleCaseFile { try RuleCaseFile.load(yaml: yaml, fileName: "cases.yaml") }

    @Test func aFailingCaseSaysWhatDiffered() throws {
        let file = try load("""
        defaults: { currency: USD, now: "2026-10-10T12:00:00Z", address: US }
        cases:
          - name: wrong
            cart: { items: [{ id: a, label: A, quantity: 2, unit_amount: 10.00 }] }
            expect: { methods: [{ id: flat, amount: 6.00 }, other], total: 25.5 }
          - name: right
            cart: { subtotal: 20.00 }
            expect: { outcome: update, methods: [flat], summary: { subtotal: 20.00, shipping: 5 }, total: 25.00 }

        """)
        let results = file.run(against: rules)
        #expect(results.map(\.passed) == [false, true])
        #expect(results[0].differences == ["methods: expected [flat, other], got [flat]", "flat.amount: expected 6.00, got 5.00",
                                           "total: expected 25.50, got 25.00"])
        #expect(results[0].mark.line == 3)
    }

    @Test func outcomesErrorsAndRejectionsAreCompared() throws {
        let file = try load("""
        cases:
          - { name: a, currency: EUR, now: "2026-10-10T12:00:00Z", expect: { outcome: update } }
          - { name: b, currency: EUR, now: "2026-10-10T12:00:00Z", expect: { rejection: CURRENCY_NOT_PRICED } }

        """)
        let results = file.run(against: rules)
        #expect(results[0].differences == ["outcome: expected update, got rejected (CURRENCY_NOT_PRICED)"])
        #expect(results[1].passed)
    }

    @Test func caseFileErrorsNameLineColumnAndField() {
        do {
            _ = try load("cases:\n  - { name: a, currency: USD, now: yesterday, expect: {} }\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == #"cases.yaml:2:36: cases[0].now: expected an RFC 3339 time like "2026-10-10T12:00:00Z", found "yesterday""#)
        }
        do {
            _ = try load("cases:\n  - { name: a, currency: JPY, now: \"2026-10-10T12:00:00Z\", cart: { subtotal: 10.5 }, expect: {} }\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.field == "cases[0].cart.subtotal")
            #expect(error.message == #"expected at most 0 decimals for JPY, found "10.5""#)
        }
    }

    @Test func addressShorthandLeavesEmptyPartsMissing() {
        #expect(AddressShorthand.parse("US/CA/95014/Cupertino") == PartialAddress(city: "Cupertino", state: "CA", postalCode: "95014", countryCode: "US"))
        #expect(AddressShorthand.parse("GB//SW1A 1AA/London") == PartialAddress(city: "London", postalCode: "SW1A 1AA", countryCode: "GB"))
        #expect(AddressShorthand.parse("US") == PartialAddress(countryCode: "US"))
        #expect(AddressShorthand.format(PartialAddress(postalCode: "M5V", countryCode: "CA")) == "CA//M5V/")
    }
}
