import Foundation
import QuoteContract
import QuoteWorker
import ShippingRules
import Testing

/// Rules are reloaded on SIGHUP and on file changes; a broken file keeps the rules in force.
@Suite struct RulesReloadTests {
    static func scratchCopy() throws -> String {
        let dir = NSTemporaryDirectory() + "shipquote-reload-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/rules.yaml"
        try FileManager.default.copyItem(atPath: WorkerHarness.exampleRulesPath, toPath: path)
        return path
    }

    static func payee(_ rules: ReloadableRules) -> String? {
        let request = QuoteRequest(currency: .usd, address: .cupertino, cart: .twoShirts, now: WorkerHarness.now)
        guard case .update(let update) = rules.quote(request) else { return nil }
        return update.summaryItems.last?.label
    }

    @Test func aChangedFileReplacesTheRulesAndABrokenOneKeepsThem() throws {
        let path = try Self.scratchCopy()
        let rules = try ReloadableRules(path: path)
        let metrics = WorkerMetrics()
        let watcher = RulesWatcher(rules: rules, metrics: metrics, logger: .silent)
        let original = rules.version
        #expect(Self.payee(rules) == "ACME Inc.")

        watcher.reload(reason: "SIGHUP")
        #expect(rules.version == original)

        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "payee: ACME Inc.", with: "payee: ACME Holdings")
            .write(toFile: path, atomically: true, encoding: .utf8)
        watcher.reload(reason: "SIGHUP")
        #expect(rules.version != original)
        #expect(Self.payee(rules) == "ACME Holdings")
        let replaced = rules.version

        try "version: 1\npayee: [unclosed\n".write(toFile: path, atomically: true, encoding: .utf8)
        watcher.reload(reason: "SIGHUP")
        #expect(rules.version == replaced)
        #expect(Self.payee(rules) == "ACME Holdings")
        #expect(metrics.registry.exposition().contains("shipquote_rules_reload_failures_total 1"))
        #expect(metrics.registry.exposition().contains("shipquote_rules_info{version=\"\(replaced)\"} 1"))
    }

    @Test func theWatcherNoticesAFileChangeByItself() throws {
        let path = try Self.scratchCopy()
        let rules = try ReloadableRules(path: path)
        let watcher = RulesWatcher(rules: rules, metrics: WorkerMetrics(), logger: .silent, interval: .milliseconds(20))
        watcher.start()
        defer { watcher.stop() }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "payee: ACME Inc.", with: "payee: ACME Watched")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let deadline = Date().addingTimeInterval(10)
        while Self.payee(rules) != "ACME Watched" && Date() < deadline { usleep(10_000) }
        #expect(Self.payee(rules) == "ACME Watched")
    }
}
