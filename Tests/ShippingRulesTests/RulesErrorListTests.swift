import Testing
import Foundation
@testable import ShippingRules

/// A file's independent errors are reported together, in file order, as a compiler does;
/// what only follows from an error already reported is not reported again.
@Suite("Every independent error of a rules or cases file in one run")
struct RulesErrorListTests {
    private func error(_ yaml: String) -> RulesError? { Fixture.loadError(yaml) }

    private let head = "version: 1\npayee: Shop\ncurrencies: [USD]\n"

    @Test func threeIndependentErrorsAreAllReportedInFileOrder() {
        let e = error(head + """
        zones:
          - { id: west, country: US, stats: [CA] }
        tax:
          layers:
            - { id: ca, zone: west, rate: seven }
        shipping_methods:
          - { id: s, label: S, price: { base: abc } }

        """)
        #expect(e?.errors.map(\.description) == [
            "rules.yaml:5:30: zones[0].stats: unknown key 'stats'; did you mean 'state'?",
            #"rules.yaml:8:35: tax.layers[0].rate: expected a rate like 7.25%, found "seven""#,
            #"rules.yaml:10:39: shipping_methods[0].price.base: expected a decimal amount like 5.00, found "abc""#,
        ])
        #expect(e?.errors.map(\.kind) == [.unknownKey, .invalidValue, .invalidValue])
        #expect(e?.kind == .unknownKey)
        #expect(e?.line == 5)
        #expect(e?.description == e?.errors.map(\.description).joined(separator: "\n"))
    }

    @Test func aReferenceToABrokenZoneIsNotReportedAgain() {
        let e = error(head + """
        zones:
          - { id: west, country: US, postal_codes: ["9*..1*"] }
        shipping_methods:
          - { id: s, label: S, zones: [west], price: 5.00 }
          - { id: t, label: T, zones: [wst], price: 5.00 }

        """)
        #expect(e?.errors.map(\.description) == [
            #"rules.yaml:5:45: zones[0].postal_codes[0]: expected a range like "94000..94999" or "945*..947*" with bounds of equal length, low first, found "9*..1*""#,
            "rules.yaml:8:32: shipping_methods[1].zones[0]: no zone with id 'wst'; did you mean 'west'?",
        ])
    }

    @Test func aZonesSectionThatIsNoListIsOneErrorNotOnePerReference() {
        let e = error(head + "zones: { id: west, country: US }\nshipping_methods: [{ id: s, label: S, zones: [west], price: 5.00 }]\n")
        #expect(e?.errors.map(\.description) == [#"rules.yaml:4:8: zones: expected a list, found a mapping"#])
    }

    @Test func aMisspeltRequiredKeyIsOneErrorNotTwo() {
        let e = error(head + "shipping_methods: [{ id: s, labl: S, price: 5.00 }]\n")
        #expect(e?.errors.map(\.description) == ["rules.yaml:4:29: shipping_methods[0].labl: unknown key 'labl'; did you mean 'label'?"])
    }

    @Test func unreadableCurrenciesDoNotMakeEveryAmountAnError() {
        let e = error("version: 1\npayee: Shop\ncurrencies: [DOLLARS]\nshipping_methods: [{ id: s, label: S, price: 5.00 }]\n")
        #expect(e?.errors.map(\.description) == [#"rules.yaml:3:14: currencies[0]: expected an ISO 4217 code like USD, found "DOLLARS""#])
    }

    @Test func atMostFiftyErrorsAreListedAndTheRestCounted() {
        let methods = (0..<60).map { "  - { id: m\($0), label: M, price: { base: x } }\n" }.joined()
        let e = error(head + "shipping_methods:\n" + methods)
        #expect(e?.errors.count == 50)
        #expect(e?.omitted == 10)
        #expect(e?.errors.last?.description == #"rules.yaml:54:41: shipping_methods[49].price.base: expected a decimal amount like 5.00, found "x""#)
        #expect(e?.description.hasSuffix("\nand 10 more errors (only the first 50 are listed)") == true)
    }

    @Test func rulesCheckListsEveryErrorOfEveryFile() throws {
        let dir = NSTemporaryDirectory() + "rules-check-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try (head + "shipping_methods: [{ id: s, label: S, price: x, zones: [nowhere] }]\n")
            .write(toFile: dir + "/a.yaml", atomically: true, encoding: .utf8)
        let report = RulesCheck.check(path: dir)
        #expect(report.errors.map(\.description) == [
            "\(dir)/a.yaml:4:46: shipping_methods[0].price: expected a decimal amount like 5.00, found \"x\"",
            "\(dir)/a.yaml:4:57: shipping_methods[0].zones[0]: no zone with id 'nowhere'; define it under zones:",
        ])
        #expect(!report.passed)
    }

    @Test func aCaseFileReportsEveryBrokenCase() {
        let yaml = """
        defaults: { currency: USD, now: "2026-10-10T12:00:00Z" }
        cases:
          - { name: one, address: US/CA/95014, expect: { outcome: updated } }
          - { name: two, address: US/CA/95014, expect: { outcome: update } }
          - { name: three, address: US/CA/95014, cart: { items: [{ unit_amount: 1.005 }] }, expect: { outcome: update } }
          - { name: two, address: US/CA/95014, expect: { outcome: update } }

        """
        do {
            _ = try RuleCaseFile.load(yaml: yaml, fileName: "cases.yaml")
            Issue.record("expected an error")
        } catch {
            #expect(error.errors.map(\.description) == [
                #"cases.yaml:3:59: cases[0].expect.outcome: expected update|keep|unserviceable|rejected, found "updated""#,
                #"cases.yaml:5:73: cases[2].cart.items[0].unit_amount: expected at most 2 decimals for USD, found "1.005""#,
                "cases.yaml:6:5: cases[3]: case name 'two' is used twice; names must be unique",
            ])
        }
    }
}
