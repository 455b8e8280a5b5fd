import Testing
@testable import ShippingRules

/// A rules file is read by every running worker on reload, so no file may crash or stall the
/// loader: nesting, size and alias expansion are bounded, each with a located error.
@Suite("Rules files the loader refuses whole: too deep, too large, too many values")
struct RulesLimitsTests {
    private func error(_ yaml: String) -> RulesError? { Fixture.loadError(yaml) }

    private let depthMessage = "lists and mappings nest deeper than 64 levels here, the limit for a rules file (rules need about 8); "
        + "look for brackets opened and never closed, or a generator gone wrong"

    @Test func fiftyThousandNestedListsAreRefusedWithTheirPosition() {
        let levels = 50_000
        let e = error("version: 1\npayee: " + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "\n")
        #expect(e?.kind == .tooLarge)
        #expect(e?.description == "rules.yaml:2:71: " + depthMessage)
    }

    @Test func fiftyThousandNestedMappingsAreRefusedWithTheirPosition() {
        let levels = 50_000
        let e = error("version: 1\npayee: " + String(repeating: "{a: ", count: levels) + "b" + String(repeating: "}", count: levels) + "\n")
        #expect(e?.kind == .tooLarge)
        #expect(e?.description == "rules.yaml:2:260: " + depthMessage)
    }

    @Test func fiftyThousandNestedBlockListsAreRefusedWithTheirPosition() {
        let e = error("version: 1\npayee:\n  " + String(repeating: "- ", count: 50_000) + "x\n")
        #expect(e?.kind == .tooLarge)
        #expect(e?.description == "rules.yaml:3:129: " + depthMessage)
    }

    @Test func aCaseFileIsBoundedAlike() {
        do {
            _ = try RuleCaseFile.load(yaml: "cases: " + String(repeating: "[", count: 50_000), fileName: "cases.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "cases.yaml:1:71: " + depthMessage)
        }
    }

    @Test func sixtyFourLevelsStillLoad() {
        // The root mapping is the first level; payee's 63 lists fill the limit exactly.
        let e = error("version: 1\ncurrencies: [USD]\npayee: " + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "\n")
        #expect(e?.errors.map(\.description) == ["rules.yaml:1:1: shipping_methods: missing; expected a list of shipping methods",
                                                  #"rules.yaml:3:8: payee: expected the grand total's label, like ACME Inc., found a list"#])
    }

    @Test func aFileOverThirtyTwoMebibytesIsRefusedAtTheLineWhereItCrossesTheLimit() {
        let line = "# " + String(repeating: "x", count: 1_021) + "\n"                  // 1 KiB a line
        let e = error(String(repeating: line, count: 32 * 1_024 + 1))
        #expect(e?.kind == .tooLarge)
        #expect(e?.description == "rules.yaml:32769:1: the file is 33555456 bytes, over the limit of 33554432 bytes (32 MiB) for a rules file; "
                + #"write long postal code lists as prefixes ("941*") or ranges ("94000..94999"), or split the merchants"#)
    }

    @Test func aliasesThatExpandBeyondFourMillionValuesAreRefused() {
        // Each level doubles: 2^23 values from a few hundred bytes ("billion laughs").
        var yaml = "version: 1\nl0: &l0 [x, x]\n"
        for i in 1...22 { yaml += "l\(i): &l\(i) [*l\(i - 1), *l\(i - 1)]\n" }
        let e = error(yaml)
        #expect(e?.kind == .tooLarge)
        #expect(e?.description == "rules.yaml:21:18: the document expands to more than 4000000 values here (an alias counts as everything "
                + "its anchor holds, each time it is used), the limit for a rules file; use fewer or smaller aliases")
    }

    @Test func aFortyThousandRowZipTableLoadsAndMatchesItsRows() throws {
        let set = try RuleSet.load(yaml: StressRules.postalTable(codeCount: 40_000), fileName: "zips.yaml")
        func methods(_ zip: String) -> [String]? {
            set.quote(Fixture.request(address: PartialAddress(postalCode: zip, countryCode: "US"), selected: nil)).update?.shippingMethods.map(\.id)
        }
        #expect(methods("00000") == ["standard"])
        #expect(methods("39999") == ["standard"])
        #expect(methods("40000") == nil)
        #expect(set.warnings.isEmpty)
    }
}
