import Foundation
import Kafka
import QuoteBench
import Testing

/// `bench gateway` on a small load with its default rates (1,000/s, then saturated), connections,
/// duration limit, partitions and workers: every call is accounted for by its status, the
/// superseded count is the 409s, and the document has the fields people and machines read.
/// No figure is asserted: speed is measured by the command.
@Suite struct GatewayBenchTests {
    private static let rulesPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/rules/us-acme.yaml").path

    /// The embedded broker's client settings, as `shipquote bench` gives them.
    private static func embeddedClients(_ bootstrap: String) -> KafkaConfiguration {
        KafkaConfiguration(["bootstrap.servers": bootstrap, "fetch.wait.max.ms": "1", "session.timeout.ms": "6000",
                            "heartbeat.interval.ms": "500", "auto.offset.reset": "earliest"])
    }

    @Test func everyCallIsAnsweredWithOneStatusAndTheSupersededAreThe409s() async throws {
        var settings = GatewayBenchSettings()
        settings.requests = 300
        settings.sessions = 40
        settings.rulesPath = Self.rulesPath
        settings.burstFraction = 0.3
        try settings.validate()
        // On a thread of its own, as the command runs it: the bench waits for its async work by
        // blocking, which on one of the test pool's threads (two on two cores) could starve the pool.
        let run = settings
        let report = try await withCheckedThrowingContinuation { (done: CheckedContinuation<GatewayBenchReport, Error>) in
            Thread { done.resume(with: Result { try GatewayBench.run(run, embeddedClients: Self.embeddedClients) { _ in } }) }.start()
        }
        #expect(!report.anyFailure, "\(report.table)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])

        let settingsJSON = try #require(document["settings"] as? [String: Any])
        #expect(settingsJSON["rate"] as? String == "1000/s,max")
        #expect(settingsJSON["connections"] as? Int == 32)
        #expect(settingsJSON["requests"] as? Int == 300)
        #expect(settingsJSON["duration_limit_seconds"] as? Double == 30)
        #expect(settingsJSON["partitions"] as? Int == 8)
        #expect(settingsJSON["workers"] as? Int == 1)

        let phases = try #require(document["phases"] as? [[String: Any]])
        #expect(phases.map { $0["name"] as? String } == ["kafka-1000ps", "http-1000ps", "kafka-max", "http-max"])
        #expect(phases.map { $0["path"] as? String } == ["kafka", "http", "kafka", "http"])
        var superseded = 0
        for phase in phases {
            let name = phase["name"] as? String ?? "?"
            #expect(phase["requests_planned"] as? Int == 300, "\(name)")
            // Beside the whole suite on two cores a phase can reach the 30 s duration limit (the
            // default, exercised here) before its last calls: those are counted as unsent.
            let sent = try #require(phase["requests_sent"] as? Int, "\(name)")
            #expect(sent > 0 && sent + (phase["requests_unsent"] as? Int ?? -1) == 300, "\(name)")
            let statuses = try #require(phase["statuses"] as? [String: Int])
            #expect(Set(statuses.keys) == ["200", "204", "409", "422", "504", "other"], "\(name)")
            #expect(statuses.values.reduce(0, +) == sent, "\(name): \(statuses)")
            #expect(statuses["other"] == 0, "\(name): \(String(describing: phase["status_codes"]))")
            let codes = try #require(phase["status_codes"] as? [String: Int])
            #expect(codes.values.reduce(0, +) == sent, "\(name): \(codes)")
            #expect(phase["superseded"] as? Int == statuses["409"], "\(name)")
            superseded += statuses["409"] ?? 0
            let latency = try #require(phase["latency_ms"] as? [String: Double])
            #expect(Set(latency.keys) == ["p50", "p90", "p99", "p999", "max", "mean"], "\(name)")
            #expect(phase["achieved_per_second"] is Double, "\(name)")
            let slowest = try #require(phase["slowest_calls"] as? [[String: Double]], "\(name)")
            #expect(slowest.count == 10 && slowest.allSatisfy { Set($0.keys) == ["made_at_s", "ms"] }, "\(name)")
        }
        // Bursts send a session's next address while the call before it waits: some calls are overtaken.
        #expect(superseded > 0)

        let comparison = try #require(document["comparison"] as? [[String: Any]])
        #expect(comparison.map { $0["rate"] as? String } == ["1000/s", "max"])
        for entry in comparison {
            for measure in ["p50", "p99", "max"] {
                let figures = try #require(entry[measure] as? [String: Double], "\(measure)")
                #expect(Set(figures.keys) == ["http_ms", "kafka_ms", "added_ms", "ratio"])
            }
        }
        let target = try #require(comparison[0]["target"] as? [String: Any])
        #expect(target["p99_added_ms_at_most"] as? Double == 2)
        #expect(target["met"] is Bool)
        #expect(comparison[1]["target"] == nil)
        #expect(report.table.contains("HTTP against Kafka-only, same rate, same run:"))
        #expect(report.table.contains("1000/s: p50 "))
    }

    @Test func settingsThatMakeNoRunAreRefusedWithWhatToChange() {
        let positive = BenchSettingsError("bench gateway: --workers, --sessions, --requests, --connections, --partitions and --duration-limit must be positive")
        let cases: [(String, (inout GatewayBenchSettings) -> Void, BenchSettingsError)] = [
            ("no requests", { $0.requests = 0 }, positive),
            ("no connections", { $0.connections = 0 }, positive),
            ("no time", { $0.durationLimit = 0 }, positive),
            ("no sessions", { $0.sessions = -1 }, positive),
            ("too many connections", { $0.connections = 513 },
             BenchSettingsError("bench gateway: --connections may be at most 512, the gateway's default max-in-flight")),
            ("burst above 1", { $0.burstFraction = 1.5 }, BenchSettingsError("--burst-fraction must be between 0 and 1")),
            ("no rate", { $0.rates = [] }, BenchSettingsError("--rate needs at least one rate")),
        ]
        for (name, change, error) in cases {
            var settings = GatewayBenchSettings()
            change(&settings)
            #expect(throws: error, "\(name)") { try settings.validate() }
        }
        #expect(throws: Never.self) { try GatewayBenchSettings().validate() }
    }
}
