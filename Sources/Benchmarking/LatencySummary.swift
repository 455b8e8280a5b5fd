/// Percentiles of a set of latencies (seconds), by nearest rank: p99 is the smallest sample that
/// at least 99% of the samples do not exceed. Exact, not interpolated, so a figure is always a
/// latency that really happened.
public struct LatencySummary: Sendable, Equatable {
    public let count: Int
    public let p50: Double
    public let p90: Double
    public let p99: Double
    public let p999: Double
    public let max: Double
    public let mean: Double

    public init(samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        p50 = Self.rank(0.50, sorted)
        p90 = Self.rank(0.90, sorted)
        p99 = Self.rank(0.99, sorted)
        p999 = Self.rank(0.999, sorted)
        max = sorted.last ?? 0
        mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
    }

    /// The nearest-rank percentile of already sorted samples; 0 for none.
    public static func rank(_ fraction: Double, _ sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.min(Swift.max(index, 0), sorted.count - 1)]
    }
}
