import Foundation
import Testing

/// `shipquote bench` end to end on a tiny load: it runs, answers every session's latest event,
/// publishes no stale reply, and writes JSON and an SVG. No figure is asserted: speed is
/// measured by the command, not by tests.
@Suite struct BenchTests {
    @Test func aSmallBenchAnswersEveryLatestEventAndPublishesNoStaleReply() throws {
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: svg) }
        let result = try Binary.run(["bench", "--events", "600", "--sessions", "50", "--rate", "300", "--partitions", "2",
                                     "--burst-fraction", "0.3", "--rules", Binary.exampleRules, "--json", "--svg", svg], timeout: 120)
        #expect(result.status == 0, "bench failed: \(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let phases = try #require(document["phases"] as? [[String: Any]])
        #expect(phases.map { $0["system"] as? String } == ["echo", "shipquote"])
        for phase in phases {
            #expect(phase["events_produced"] as? Int == 600)
            #expect(phase["missing_replies"] as? Int == 0)
            #expect(phase["stale_replies"] as? Int == 0)
            #expect((phase["replies"] as? Int ?? 0) > 0)
        }
        let shipquote = phases[1]
        // Bursts make some answers stale: the workers drop them, and every drop is counted.
        let drops = try #require(shipquote["drops"] as? [String: Int])
        let outcomes = try #require(shipquote["outcomes"] as? [String: Int])
        #expect(outcomes.values.reduce(0, +) + drops.values.reduce(0, +) == shipquote["events_received"] as? Int)
        #expect((document["comparison"] as? [String: Any])?["p99_ratio"] != nil)
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.hasPrefix("<svg") && picture.contains("shipquote"))
    }
}
