import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Kafka
import MetricsHTTP
import QuoteContract
import QuoteWorker
import ShippingRules
import Testing

/// `/metrics`, `/healthz` and `/readyz` of a running worker, scraped over HTTP on 127.0.0.1.
@Suite(.serialized) struct OperationsTests {
    @Test func countersMoveByExactlyTheEventsSentByOutcome() throws {
        let harness = try WorkerHarness(partitions: 2)
        defer { harness.stop() }
        let endpoint = try OperationsEndpoint(listen: HTTPListenAddress(host: "127.0.0.1", port: 0), metrics: harness.worker.metrics)
        defer { endpoint.stop() }
        harness.awaitAssignment()
        let port = endpoint.address.port

        let before = try Scrape(port: port)
        #expect(before.contentType == "text/plain; version=0.0.4; charset=utf-8")
        // Every outcome and drop reason is there from the start, at 0, so rates begin at the first scrape.
        for outcome in WorkerMetrics.outcomeNames { #expect(before.value("shipquote_events_total", ["outcome": outcome]) != nil) }
        for reason in DropReason.allCases { #expect(before.value("shipquote_dropped_events_total", ["reason": reason.rawValue]) != nil) }

        // Wave one: 6 quotable sessions, 3 outside the rules' country, 2 unreadable records.
        let updates = (0..<6).map { harness.record(harness.event(session: "ops-us-\($0)", sequence: 1)) }
        let unserviceable = (0..<3).map { harness.record(harness.event(session: "ops-ca-\($0)", sequence: 1, address: .toronto)) }
        let garbage = (0..<2).map { KafkaOutgoingMessage(topic: harness.topics.addressChanged, key: Array("ops-bad-\($0)".utf8), value: Array("not json".utf8)) }
        harness.produce(updates + unserviceable + garbage)
        _ = harness.awaitFinished(11)
        // Wave two: the first 4 sessions again with the sequence already answered (duplicates).
        harness.produce((0..<4).map { harness.record(harness.event(session: "ops-us-\($0)", sequence: 1)) })
        _ = harness.awaitFinished(15)

        let after = try Scrape(port: port)
        func delta(_ name: String, _ labels: [String: String] = [:]) -> Double {
            (after.value(name, labels) ?? .nan) - (before.value(name, labels) ?? 0)
        }
        #expect(delta("shipquote_events_received_total") == 15)
        #expect(delta("shipquote_events_total", ["outcome": "update"]) == 6)
        #expect(delta("shipquote_events_total", ["outcome": "unserviceable"]) == 3)
        // The unreadable records had no sequence to answer: dead letters without a reply.
        #expect(delta("shipquote_events_total", ["outcome": "rejected"]) == 0)
        #expect(delta("shipquote_dropped_events_total", ["reason": "unanswerable"]) == 2)
        #expect(delta("shipquote_events_total", ["outcome": "keep"]) == 0)
        #expect(delta("shipquote_dropped_events_total", ["reason": "duplicate"]) == 4)
        #expect(delta("shipquote_dropped_events_total", ["reason": "stale"]) == 0)
        #expect(delta("shipquote_dropped_events_total", ["reason": "superseded"]) == 0)
        #expect(delta("shipquote_dead_letters_total") == 2)
        #expect(after.value("shipquote_tracked_sessions") == 9)

        // The scrape and the in-process snapshot are the same numbers.
        let snapshot = harness.worker.metrics.snapshot()
        #expect(Double(snapshot.eventsIn) == after.value("shipquote_events_received_total"))
        #expect(snapshot.outcomes == ["update": 6, "unserviceable": 3])
        #expect(snapshot.drops == [.duplicate: 4, .unanswerable: 2])
        #expect(after.text.contains("# TYPE shipquote_quote_duration_seconds histogram"))
        #expect(after.text.contains("# TYPE shipquote_end_to_end_seconds histogram"))
    }

    @Test func readyOnlyAfterAssignmentAndAliveWhileTheLoopTurns() throws {
        let harness = try WorkerHarness(partitions: 2, startWorker: false)
        defer { harness.stop() }
        let endpoint = try OperationsEndpoint(listen: HTTPListenAddress(host: "127.0.0.1", port: 0), metrics: harness.worker.metrics)
        defer { endpoint.stop() }
        let port = endpoint.address.port
        harness.worker.metrics.rulesLoaded(version: harness.rules.version)

        let early = try HTTPGet.fetch(port: port, path: "/readyz")
        #expect(early.status == 503)
        #expect(early.body.contains("\"group_joined\":false"))
        #expect(try HTTPGet.fetch(port: port, path: "/healthz").status == 200)

        harness.start()
        harness.awaitAssignment()
        let ready = try HTTPGet.fetch(port: port, path: "/readyz")
        #expect(ready.status == 200, "\(ready.body)")
        #expect(ready.body.contains("\"assigned_partitions\":2"))
        #expect(try HTTPGet.fetch(port: port, path: "/healthz").status == 200)
        #expect(try HTTPGet.fetch(port: port, path: "/metrics/").status == 404)
        #expect(try HTTPGet.fetch(port: port, path: "/").status == 404)

        let scrape = try Scrape(port: port)
        #expect(scrape.value("shipquote_rules_info", ["version": harness.rules.version]) == 1)
    }
}

/// One `/metrics` scrape, read back into samples.
struct Scrape {
    let text: String
    let contentType: String?
    private let samples: [String: Double]

    init(port: UInt16) throws {
        let answer = try HTTPGet.fetch(port: port, path: "/metrics")
        guard answer.status == 200 else { throw URLError(.badServerResponse) }
        text = answer.body
        contentType = answer.contentType
        samples = Scrape.parse(answer.body)
    }

    /// The sample with exactly these labels.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let key = labels.isEmpty ? name : name + "{" + labels.keys.sorted().map { "\($0)=\"\(labels[$0]!)\"" }.joined(separator: ",") + "}"
        return samples[key]
    }

    /// Sample lines, keyed by name and sorted labels (values here carry no escapes or commas).
    static func parse(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            let series = line[..<space]
            if let brace = series.firstIndex(of: "{") {
                let labels = series[series.index(after: brace)..<series.index(before: series.endIndex)]
                    .split(separator: ",").map(String.init).sorted()
                samples[String(series[..<brace]) + "{" + labels.joined(separator: ",") + "}"] = value
            } else {
                samples[String(series)] = value
            }
        }
        return samples
    }
}

/// A blocking request with a time limit, through URLSession.
enum HTTPGet {
    struct Answer { let status: Int; let contentType: String?; let body: String }

    static func fetch(port: UInt16, path: String) throws -> Answer {
        let request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, timeoutInterval: 10)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Answer, any Error> = .failure(URLError(.timedOut))
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let http = response as? HTTPURLResponse {
                result = .success(Answer(status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"),
                                         body: String(decoding: data ?? Data(), as: UTF8.self)))
            } else {
                result = .failure(error ?? URLError(.badServerResponse))
            }
            done.signal()
        }.resume()
        done.wait()
        return try result.get()
    }
}
