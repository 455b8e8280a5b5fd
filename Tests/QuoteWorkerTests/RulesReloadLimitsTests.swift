import Foundation
import QuoteWorker
import ShippingRules
import Testing

/// A ConfigMap every worker reloads must not be able to take them down: a file nested 50,000
/// levels deep (which used to crash the process freeing its tree) fails to load like any broken
/// file, and the rules in force keep quoting.
@Suite struct RulesReloadLimitsTests {
    static let nested = [
        String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000),
        String(repeating: "{a: ", count: 50_000) + "b" + String(repeating: "}", count: 50_000),
    ]

    @Test func aRunningWatcherMeetingAFileNestedFiftyThousandLevelsDeepKeepsTheRulesInForce() throws {
        let path = try RulesReloadTests.scratchCopy()
        let metrics = WorkerMetrics()
        let rules = try ReloadableRules(path: path)
        let inForce = rules.version
        let watcher = RulesWatcher(rules: rules, metrics: metrics, logger: .silent, interval: .milliseconds(20))
        watcher.start()
        defer { watcher.stop() }

        for (i, payee) in Self.nested.enumerated() {
            try ("version: 1\npayee: " + payee + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            let failures = "shipquote_rules_reload_failures_total \(i + 1)"
            let deadline = Date().addingTimeInterval(10)
            while !metrics.registry.exposition().contains(failures) && Date() < deadline { usleep(10_000) }
            #expect(metrics.registry.exposition().contains(failures))
            #expect(rules.version == inForce)
            #expect(RulesReloadTests.payee(rules) == "ACME Inc.")
        }
    }

    @Test func theReloadSaysWhereTheFileIsTooDeep() throws {
        let path = try RulesReloadTests.scratchCopy()
        let rules = try ReloadableRules(path: path)
        try ("version: 1\npayee: " + Self.nested[0] + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: RulesError(kind: .tooLarge, file: path, mark: SourceMark(line: 2, column: 71), field: "",
                                   message: "lists and mappings nest deeper than 64 levels here, the limit for a rules file (rules need about 8); "
                                   + "look for brackets opened and never closed, or a generator gone wrong")) { try rules.reload() }
        #expect(RulesReloadTests.payee(rules) == "ACME Inc.")
    }
}
