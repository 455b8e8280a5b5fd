import Foundation
import Testing
@testable import ShippingRules

@Suite("A library of merchants' rules")
struct RuleLibraryTests {
    private func directory(_ files: [String: String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir.path
    }

    private func rules(merchant: String?, price: String) -> String {
        (merchant.map { "merchant: \($0)\n" } ?? "") + "version: 1\npayee: \(merchant ?? "Shop")\ncurrencies: [USD]\n"
            + "shipping_methods: [{id: flat, label: Flat, price: \(price)}]\n"
    }

    @Test func theEventsMerchantSelectsItsRuleSet() throws {
        let path = try directory(["acme.yaml": rules(merchant: "acme", price: "5.00"), "zenith.yml": rules(merchant: "zenith", price: "7.00"),
                                  "notes.txt": "not rules"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let library = try RuleLibrary.load(path: path)
        #expect(library.ruleSets.map(\.merchant) == ["acme", "zenith"])
        let request = Fixture.request(address: PartialAddress(countryCode: "US"), selected: nil)
        #expect(library.quote(request.with(merchant: "zenith")).update?.summaryItems.last?.label == "zenith")
        #expect(library.quote(request.with(merchant: "nobody"))
                == .rejected(QuoteRejection(code: "MERCHANT_UNKNOWN", message: "no rules are loaded for this merchant")))
        guard case .rejected(let rejection) = library.quote(request.with(merchant: nil)) else { Issue.record("expected a rejection"); return }
        #expect(rejection.code == "MERCHANT_REQUIRED")
        #expect(library.version.hasPrefix("sha256:") && library.version != library.ruleSets[0].version)
    }

    @Test func oneRuleSetServesEveryRequest() throws {
        let library = try RuleLibrary([Fixture.rules("shipping_methods: [{id: flat, label: Flat, price: 5.00}]\n")])
        let request = Fixture.request(address: PartialAddress(countryCode: "US"), selected: nil).with(merchant: nil)
        #expect(library.quote(request).update != nil)
        #expect(library.version == library.ruleSets[0].version)
    }

    @Test func twoFilesForOneMerchantAreRefused() throws {
        let path = try directory(["a.yaml": rules(merchant: "acme", price: "5.00"), "b.yaml": rules(merchant: "acme", price: "6.00")])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: RulesError.self) { try RuleLibrary.load(path: path) }
        do { _ = try RuleLibrary.load(path: path) } catch {
            #expect(error.kind == .duplicate)
            #expect(error.message == "merchant 'acme' is also served by \(path)/a.yaml")
        }
    }

    @Test func anErrorInOneFileNamesThatFile() throws {
        let path = try directory(["good.yaml": rules(merchant: "acme", price: "5.00"), "bad.yaml": rules(merchant: "zenith", price: "five")])
        defer { try? FileManager.default.removeItem(atPath: path) }
        do { _ = try RuleLibrary.load(path: path); Issue.record("expected an error") } catch {
            #expect(error.description == #"\#(path)/bad.yaml:5:51: shipping_methods[0].price: expected a decimal amount like 5.00, found "five""#)
        }
    }
}
