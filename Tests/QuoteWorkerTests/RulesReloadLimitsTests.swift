import Foundation
import QuoteWorker
import ShippingRules
import Testing

/// A ConfigMap every worker reloads must not be able to take them down: a file nested 50,000
/// levels deep (which used to crash the process freeing its tree) fails to load like any broken
/// file, and the rules in force keep quoting.
@Suite struct RulesReloadLimitsTests {
    @Test func aFileNestedFiftyThousandLevelsDeepKeepsTheRulesInForce() throws {
        let path = try RulesReloadTests.scratchCopy()
        let rules = try ReloadableRules(path: path)
        let metrics = WorkerMetrics()
        let watcher = RulesWatcher(rules: rules, metrics: metrics, logger: .silent)
        let original = rules.version

        for nested in [String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000),
                       String(repeating: "{a: ", count: 50_000) + "b" + String(repeating: "}", count: 50_000)] {
            try ("version: 1\npayee: " + nested + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            #expect(throws: RulesError.self) { try rules.reload() }
            watcher.reload(reason: "files changed")
        }

        #expect(rules.version == original)
        #expect(RulesReloadTests.payee(rules) == "ACME Inc.")
        #expect(metrics.registry.exposition().contains("shipquote_rules_reload_failures_total 2"))
        do {
            _ = try rules.reload()
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .tooLarge)
            #expect(error.description.hasPrefix("\(path):2:") && error.description.contains("nest deeper than 64 levels"))
        }
    }
}
