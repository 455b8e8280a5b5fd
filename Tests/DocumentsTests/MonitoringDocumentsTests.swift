import Foundation
import QuoteWorker
import Testing

/// deploy/prometheus/shipquote-alerts.yaml: Prometheus' rule-file structure, each metric one that
/// `WorkerMetrics` registers, and `promtool check rules` where promtool is installed.
@Suite struct MonitoringDocumentsTests {
    static let alertsPath = "deploy/prometheus/shipquote-alerts.yaml"
    static let promtool = ExternalTool.find("promtool")

    /// The family names WorkerMetrics registers, from the text `/metrics` serves.
    static var registeredNames: Set<String> {
        Set(WorkerMetrics().registry.exposition().split(separator: "\n")
            .filter { $0.hasPrefix("# TYPE ") }.map { String($0.split(separator: " ")[2]) })
    }

    @Test func everyRuleHasAnAlertAnExpressionASeverityAndASummary() throws {
        let file = try YAMLNode.load(try Repository.text(Self.alertsPath))
        #expect(file.keys == ["groups"])
        let groups = try #require(file["groups"]).items
        #expect(!groups.isEmpty)
        var alerts: [String] = []
        for group in groups {
            #expect(Set(group.keys).isSubset(of: ["name", "interval", "rules"]), "\(group.keys)")
            #expect(group["name"]?.text?.isEmpty == false)
            for rule in try #require(group["rules"]).items {
                #expect(Set(rule.keys).isSubset(of: ["alert", "expr", "for", "labels", "annotations", "keep_firing_for"]), "\(rule.keys)")
                let name = try #require(rule["alert"]?.text)
                alerts.append(name)
                #expect(rule["expr"]?.text?.isEmpty == false, "\(name)")
                #expect(["warning", "critical"].contains(rule["labels", "severity"]?.text ?? ""), "\(name)")
                #expect(rule["annotations", "summary"]?.text?.isEmpty == false, "\(name)")
                if let duration = rule["for"]?.text { #expect(duration.range(of: "^[0-9]+[smh]$", options: .regularExpression) != nil) }
                let used = Self.metrics(in: rule["expr"]?.text ?? "")
                #expect(used.subtracting(Self.registeredNames).isEmpty, "\(name): \(used.subtracting(Self.registeredNames).sorted())")
            }
        }
        #expect(Set(alerts).count == alerts.count, "alert names repeat")
        for needed in ["ShipQuoteConsumerLagGrowing", "ShipQuoteNoEventsAnswered", "ShipQuoteDeadLetters", "ShipQuoteAbandonedRecords",
                       "ShipQuoteWorkerNotReady", "ShipQuoteRulesReloadFailing"] {
            #expect(alerts.contains(needed), "no \(needed)")
        }
    }

    static func metrics(in expr: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: "\\bshipquote_[a-zA-Z0-9_]+")
        return Set(pattern.matches(in: expr, range: NSRange(expr.startIndex..., in: expr)).map { String(expr[Range($0.range, in: expr)!]) })
    }

    @Test(.enabled(if: promtool != nil, "promtool is not on PATH (apt-get install prometheus ships it)"))
    func promtoolAcceptsTheRules() throws {
        let result = try ExternalTool.run(try #require(Self.promtool), ["check", "rules", Self.alertsPath])
        #expect(result.status == 0, "promtool:\n\(result.output)")
        #expect(result.output.contains("SUCCESS"))
    }

    @Test func theDashboardParsesAndItsQueriesNameRegisteredMetrics() throws {
        let object = try JSONSerialization.jsonObject(with: Data(try Repository.bytes("deploy/grafana/shipquote-dashboard.json")))
        let dashboard = try #require(object as? [String: Any])
        #expect(dashboard["uid"] as? String == "shipquote")
        let text = try Repository.text("deploy/grafana/shipquote-dashboard.json")
        let used = Self.metrics(in: text).map { ["_bucket", "_sum", "_count"].reduce($0) { $0.hasSuffix($1) ? String($0.dropLast($1.count)) : $0 } }
        #expect(Set(used).subtracting(Self.registeredNames).isEmpty, "\(Set(used).subtracting(Self.registeredNames).sorted())")
    }
}
