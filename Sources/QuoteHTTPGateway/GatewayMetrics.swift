import Foundation
import Synchronization

/// The gateway's Prometheus metrics: requests by route and status, calls in flight, quote latency,
/// superseded and timed-out calls. Thread-safe; `render()` is the text format 0.0.4.
public final class GatewayMetrics: Sendable {
    /// Upper bounds (seconds) of the latency histogram's buckets; Apple's sheet waits some seconds at most.
    public static let latencyBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    private struct State {
        var requests: [String: Int] = [:]   // "route|status"
        var inFlight = 0
        var bucketCounts = [Int](repeating: 0, count: GatewayMetrics.latencyBuckets.count)
        var latencyCount = 0
        var latencySum = 0.0
        var superseded = 0
        var timedOut = 0
        var rejectedOverload = 0
    }

    private let state = Mutex(State())

    public init() {}

    func request(route: String, status: Int) { state.withLock { $0.requests["\(route)|\(status)", default: 0] += 1 } }

    /// Takes a slot for a quote call unless `limit` are in flight already.
    func enter(limit: Int) -> Bool {
        state.withLock { s in
            guard s.inFlight < limit else { s.rejectedOverload += 1; return false }
            s.inFlight += 1
            return true
        }
    }

    func leave() { state.withLock { $0.inFlight -= 1 } }

    public var inFlight: Int { state.withLock { $0.inFlight } }

    func quoteFinished(seconds: Double, status: Int) {
        state.withLock { s in
            s.latencyCount += 1
            s.latencySum += seconds
            for (i, bound) in Self.latencyBuckets.enumerated() where seconds <= bound { s.bucketCounts[i] += 1 }
            if status == 409 { s.superseded += 1 }
            if status == 504 { s.timedOut += 1 }
        }
    }

    public func render() -> String {
        let s = state.withLock { $0 }
        var out = "# HELP shipquote_gateway_requests_total HTTP requests answered, by route and status.\n"
        out += "# TYPE shipquote_gateway_requests_total counter\n"
        for key in s.requests.keys.sorted() {
            let parts = key.split(separator: "|", maxSplits: 1)
            out += "shipquote_gateway_requests_total{route=\"\(parts[0])\",status=\"\(parts[1])\"} \(s.requests[key]!)\n"
        }
        out += "# HELP shipquote_gateway_in_flight Quote calls waiting for their reply.\n# TYPE shipquote_gateway_in_flight gauge\n"
        out += "shipquote_gateway_in_flight \(s.inFlight)\n"
        out += "# HELP shipquote_gateway_quote_duration_seconds Time from a /quote or /final call's body to its answer.\n"
        out += "# TYPE shipquote_gateway_quote_duration_seconds histogram\n"
        for (i, bound) in Self.latencyBuckets.enumerated() {
            out += "shipquote_gateway_quote_duration_seconds_bucket{le=\"\(bound)\"} \(s.bucketCounts[i])\n"
        }
        out += "shipquote_gateway_quote_duration_seconds_bucket{le=\"+Inf\"} \(s.latencyCount)\n"
        out += "shipquote_gateway_quote_duration_seconds_sum \(s.latencySum)\n"
        out += "shipquote_gateway_quote_duration_seconds_count \(s.latencyCount)\n"
        for (name, help, value) in [("superseded", "Quote calls overtaken by a newer call of the same session (409).", s.superseded),
                                    ("timed_out", "Quote calls without a reply by their deadline (504).", s.timedOut),
                                    ("overloaded", "Quote calls refused because the in-flight limit was reached (503).", s.rejectedOverload)] {
            out += "# HELP shipquote_gateway_\(name)_total \(help)\n# TYPE shipquote_gateway_\(name)_total counter\n"
            out += "shipquote_gateway_\(name)_total \(value)\n"
        }
        return out
    }
}
