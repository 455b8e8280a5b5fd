/// ShipQuote's figures as ratios to the echo's, against issue 7's targets: at saturation at
/// least 0.8× the echo's events/s, and at a fixed rate (half the echo's saturation, in
/// `--compare`) a p99 within 1.5× the echo's.
struct BenchComparison {
    static let throughputTarget = 0.8
    static let p99Target = 1.5

    struct Ratio {
        let shipquote: Double
        let echo: Double
        let rate: String
        var value: Double { echo > 0 ? shipquote / echo : 0 }
    }

    var throughput: Ratio?
    var p99: Ratio?

    /// Throughput compares the saturated phases; p99 the fixed-rate ones (or, without any, the
    /// saturated ones, where it means little: both are then queueing).
    init(_ phases: [PhaseResult]) {
        func pair(_ saturated: Bool) -> (PhaseResult, PhaseResult)? {
            let chosen = phases.filter { ($0.rate == "max") == saturated }
            guard let q = chosen.last(where: { $0.system == "shipquote" }), let e = chosen.last(where: { $0.system == "echo" }) else { return nil }
            return (q, e)
        }
        if let (q, e) = pair(true) { throughput = Ratio(shipquote: q.eventsPerSecond, echo: e.eventsPerSecond, rate: "max") }
        if let (q, e) = pair(false) ?? pair(true) { p99 = Ratio(shipquote: q.latency.p99, echo: e.latency.p99, rate: q.rate) }
    }

    var json: [String: Any] {
        var out: [String: Any] = [:]
        if let throughput {
            out["throughput_ratio"] = throughput.value
            out["throughput_target_min"] = Self.throughputTarget
            out["throughput_meets_target"] = throughput.value >= Self.throughputTarget
        }
        if let p99 {
            out["p99_ratio"] = p99.value
            out["p99_ratio_rate"] = p99.rate
            out["p99_target_max"] = Self.p99Target
            out["p99_meets_target"] = p99.value <= Self.p99Target
        }
        return out
    }
}
