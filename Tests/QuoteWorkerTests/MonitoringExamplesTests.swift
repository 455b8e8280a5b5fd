import Foundation
import MetricsHTTP
import QuoteWorker
import Testing

/// deploy/prometheus/shipquote-alerts.yaml and deploy/grafana/shipquote-dashboard.json ask only
/// for metrics a worker serves: every `shipquote_*` name in their PromQL is one that a real
/// `/metrics`, scraped over HTTP from an in-process endpoint, announces.
@Suite struct MonitoringExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The families `/metrics` announces (`# TYPE`) and the series names it shows (histograms' `_bucket`, `_sum`, `_count`).
    static func scrapedNames() throws -> Set<String> {
        let endpoint = try OperationsEndpoint(listen: HTTPListenAddress(host: "127.0.0.1", port: 0), metrics: WorkerMetrics())
        defer { endpoint.stop() }
        let answer = try HTTPGet.fetch(port: endpoint.address.port, path: "/metrics")
        #expect(answer.status == 200)
        var names: Set<String> = []
        for line in answer.body.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                names.insert(String(line.split(separator: " ")[2]))
            } else if !line.hasPrefix("#") {
                names.insert(String(line.prefix { $0 != "{" && $0 != " " }))
            }
        }
        return names
    }

    /// Every `shipquote_…` identifier in a text of PromQL.
    static func metricNames(in text: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: "\\b(shipquote|process)_[a-zA-Z0-9_]+")
        let range = NSRange(text.startIndex..., in: text)
        return Set(pattern.matches(in: text, range: range).map { String(text[Range($0.range, in: text)!]) })
    }

    @Test func theAlertRulesNameOnlyMetricsTheWorkerServes() throws {
        let served = try Self.scrapedNames()
        #expect(served.contains("shipquote_events_received_total"))
        let text = try String(contentsOf: Self.root.appendingPathComponent("deploy/prometheus/shipquote-alerts.yaml"), encoding: .utf8)
        let exprs = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }.joined(separator: "\n")
        let used = Self.metricNames(in: exprs)
        #expect(used.count >= 6)
        #expect(used.subtracting(served).isEmpty, "not served by a worker: \(used.subtracting(served).sorted())")
    }

    @Test func everyDashboardQueryNamesOnlyMetricsTheWorkerServes() throws {
        let served = try Self.scrapedNames()
        let data = try Data(contentsOf: Self.root.appendingPathComponent("deploy/grafana/shipquote-dashboard.json"))
        let dashboard = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        #expect(!panels.isEmpty)
        var exprs: [String] = []
        for panel in panels {
            let targets = try #require(panel["targets"] as? [[String: Any]], "panel \(panel["title"] ?? "?") has no targets")
            for target in targets { exprs.append(try #require(target["expr"] as? String)) }
        }
        for expr in exprs {
            let used = Self.metricNames(in: expr)
            #expect(!used.isEmpty || expr.contains("up{"), "\(expr) names no ShipQuote metric")
            #expect(used.subtracting(served).isEmpty, "\(expr): not served by a worker: \(used.subtracting(served).sorted())")
        }
        // Every family the worker registers is on the dashboard somewhere.
        let families = served.filter { !$0.hasSuffix("_bucket") && !$0.hasSuffix("_sum") && !$0.hasSuffix("_count") }
        let shown = Set(exprs.flatMap { Self.metricNames(in: $0) }).map { name in
            ["_bucket", "_sum", "_count"].reduce(name) { $0.hasSuffix($1) ? String($0.dropLast($1.count)) : $0 }
        }
        #expect(families.subtracting(shown).isEmpty, "not on the dashboard: \(families.subtracting(shown).sorted())")
    }
}
