/// One metric name with its help, type and the series under it, keyed by label values
/// (in the order of `labelNames`).
struct MetricFamily: Sendable {
    enum Kind: Sendable {
        case counter
        case gauge
        case histogram(bounds: [Double])

        var typeName: String {
            switch self {
            case .counter: "counter"
            case .gauge: "gauge"
            case .histogram: "histogram"
            }
        }
    }

    let name: String
    let help: String
    let kind: Kind
    let labelNames: [String]
    var scalars: [[String]: Double] = [:]
    var histograms: [[String]: HistogramSeries] = [:]
    /// For a family read at scrape time (process facts): its series, by label values.
    var sample: (@Sendable () -> [[String]: Double])?

    func checkLabels(_ values: [String]) {
        precondition(values.count == labelNames.count,
                     "metric \(name) takes labels \(labelNames), got \(values.count) values")
    }
}

/// One histogram series: a count per bucket (not cumulative; the renderer adds them up), sum and count.
struct HistogramSeries: Sendable, Equatable {
    var bucketCounts: [UInt64]
    var sum: Double = 0
    var count: UInt64 = 0

    init(bucketCount: Int) { bucketCounts = Array(repeating: 0, count: bucketCount) }

    mutating func observe(_ value: Double, bounds: [Double]) {
        // The first bound at or above the value; past the last bound it lands only in +Inf (count).
        if let slot = bounds.firstIndex(where: { value <= $0 }) { bucketCounts[slot] += 1 }
        sum += value
        count += 1
    }
}
