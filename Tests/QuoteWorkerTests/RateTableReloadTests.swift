import Foundation
import QuoteWorker
import ShippingRules
import Testing

/// A rate table (CSV) the rules name is part of the rules: changing it changes the version and is
/// picked up by a reload or by the watcher, like a changed YAML; a broken one keeps the rules in force.
@Suite struct RateTableReloadTests {
    static let rulesText = """
        version: 1
        payee: Shop
        currencies: [USD]
        tax:
          layers:
            - { id: us-zip, zip_rates: rates/zip-rates.csv }
        shipping_methods:
          - { id: standard, label: Standard, price: 0.00 }
        """

    static func csv(cupertino rate: String) -> String {
        "State,ZipCode,TaxRegionName,EstimatedCombinedRate\nCA,95014,CUPERTINO,\(rate)\n"
    }

    /// The rules file's path in a fresh folder with `rates/zip-rates.csv`.
    static func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "shipquote-rate-reload-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/rates", withIntermediateDirectories: true)
        try rulesText.write(toFile: dir + "/rules.yaml", atomically: true, encoding: .utf8)
        try csv(cupertino: "0.09125").write(toFile: dir + "/rates/zip-rates.csv", atomically: true, encoding: .utf8)
        return dir + "/rules.yaml"
    }

    static func tax(_ rules: ReloadableRules) -> String? {
        let request = QuoteRequest(currency: .usd, address: .cupertino, cart: .twoShirts, now: WorkerHarness.now)
        guard case .update(let update) = rules.quote(request) else { return nil }
        return update.summaryItems.first { $0.id == "tax" }?.amount.decimalString
    }

    @Test func aChangedTableReplacesTheRulesAndABrokenOneKeepsThem() throws {
        let path = try Self.folder()
        let table = (path as NSString).deletingLastPathComponent + "/rates/zip-rates.csv"
        let rules = try ReloadableRules(path: path)
        #expect(rules.library.rateFiles == [table])
        let original = rules.version
        #expect(Self.tax(rules) == "4.11")   // 45.00 × 9.125 % = 4.10625

        #expect(try rules.reload() == .unchanged)
        try Self.csv(cupertino: "0.0925").write(toFile: table, atomically: true, encoding: .utf8)
        #expect(try rules.reload() == .replaced(version: rules.version))
        #expect(rules.version != original)
        #expect(Self.tax(rules) == "4.16")   // 45.00 × 9.25 % = 4.1625

        let replaced = rules.version
        try Self.csv(cupertino: "nine percent").write(toFile: table, atomically: true, encoding: .utf8)
        #expect(throws: RulesError.self) { try rules.reload() }
        #expect(rules.version == replaced)
        #expect(Self.tax(rules) == "4.16")
    }

    @Test func theWatcherNoticesATableChangeByItself() throws {
        let path = try Self.folder()
        let table = (path as NSString).deletingLastPathComponent + "/rates/zip-rates.csv"
        let rules = try ReloadableRules(path: path)
        let watcher = RulesWatcher(rules: rules, metrics: WorkerMetrics(), logger: .silent, interval: .milliseconds(20))
        watcher.start()
        defer { watcher.stop() }
        // A different size, so the change shows even where modification times are coarse.
        try Self.csv(cupertino: "0.1").write(toFile: table, atomically: true, encoding: .utf8)
        let deadline = Date().addingTimeInterval(10)
        while Self.tax(rules) != "4.50" && Date() < deadline { usleep(10_000) }
        #expect(Self.tax(rules) == "4.50")   // 45.00 × 10 %
    }
}
