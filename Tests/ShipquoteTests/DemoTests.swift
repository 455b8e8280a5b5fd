import Foundation
import Testing

@Suite struct DemoTests {
    @Test func theDemoRunsToTheEndAndShowsAStaleDropAnUnserviceableAddressADeadLetterAndTheHTTPPath() throws {
        let result = try Binary.run(["demo"], timeout: 180)
        #expect(result.status == 0, "demo failed: \(result.stderr)")
        let out = result.stdout
        #expect(out.contains("◀ seq 3  dropped as stale"))
        #expect(out.contains("◀ seq 5  unserviceable"))
        #expect(out.contains("COUNTRY_NOT_SUPPORTED"))
        #expect(out.contains("◀ seq 6  rejected — invalid_field: cart.items[0].unit_amount.value"))
        #expect(out.contains("error-code: invalid_field"))
        #expect(out.contains("◀ seq 7  update"))
        // Both paths reach the one worker: 7 events over Kafka, 6 over HTTP (the malformed body is refused before Kafka).
        #expect(out.contains("Worker counters: 13 events in"))
        #expect(out.hasSuffix("Demo finished.\n"))

        // The HTTP path: each step a curl command, then the status and body that came back over the socket.
        let http = try #require(out.components(separatedBy: "The same checkout over HTTP").last.map { $0.split(separator: "\n").map(String.init) })
        let port = try #require(http.first.flatMap { $0.components(separatedBy: "shipquote gateway on 127.0.0.1:").last }.flatMap { Int($0) })
        let calls = http.filter { $0.hasPrefix("  $ curl ") }
        #expect(calls.count == 7)
        for (call, sequence) in zip(calls, [1, 2, 4, 3, 5, 6, 7]) {
            #expect(call.hasPrefix("  $ curl -X POST http://127.0.0.1:\(port)/v1/sessions/demo-"), "\(call)")
            #expect(call.contains("/quote -H 'Content-Type: application/json' -d '{\"sequence\":\(sequence),\"merchant\":\"acme\""), "\(call)")
        }
        var answers: [(status: String, body: String)] = []
        for (index, line) in http.enumerated() where line.hasPrefix("◀ HTTP ") {
            let body = http.indices.contains(index + 1) && http[index + 1].hasPrefix("  {") ? String(http[index + 1].dropFirst(2)) : ""
            answers.append((line.components(separatedBy: "   (").first ?? line, body))
        }
        #expect(answers.map(\.status) == ["◀ HTTP 204  Quote-Outcome: keep", "◀ HTTP 200  Quote-Outcome: update",
                                          "◀ HTTP 200  Quote-Outcome: update", "◀ HTTP 409",
                                          "◀ HTTP 200  Quote-Outcome: unserviceable", "◀ HTTP 400", "◀ HTTP 200  Quote-Outcome: update"])
        guard answers.count == 7 else { return }
        func total(_ value: String) -> String {
            "{\"id\":\"total\",\"label\":\"ACME Inc.\",\"amount\":{\"currency\":\"USD\",\"value\":\"\(value)\"}}],\"shipping_methods\":["
        }
        #expect(answers[0].body == "")
        #expect(answers[1].body.hasPrefix("{\"summary_items\":[") && answers[1].body.contains(total("66.13")), "\(answers[1].body)")
        #expect(answers[2].body.contains(total("62.00")), "\(answers[2].body)")
        #expect(answers[3].body == "{\"superseded_by\":4}")
        #expect(answers[4].body == "{\"summary_items\":[],\"shipping_methods\":[],\"errors\":[{\"code\":\"COUNTRY_NOT_SUPPORTED\",\"message\":\"We ship to the United States only.\"}]}")
        #expect(answers[5].body.hasPrefix("{\"error\":\"invalid_field\",\"field\":\"cart.items[0].unit_amount.value\","), "\(answers[5].body)")
        #expect(answers[6].body.contains(total("79.13")) && answers[6].body.contains("\"shipping_methods\":[{\"id\":\"express\""), "\(answers[6].body)")
    }
}
