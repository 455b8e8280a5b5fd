/// A value that only goes up (events, drops). Label values go in the order the labels were registered.
public struct Counter: Sendable {
    let registry: MetricsRegistry
    let index: Int

    public func increment(_ labels: [String] = [], by amount: Double = 1) {
        precondition(amount >= 0, "a counter never goes down")
        registry.update(index) { family in
            family.checkLabels(labels)
            family.scalars[labels, default: 0] += amount
        }
    }

    /// Makes a series visible at 0 before its first event, so rates start from the beginning.
    public func touch(_ labels: [String] = []) {
        registry.update(index) { family in
            family.checkLabels(labels)
            family.scalars[labels, default: 0] += 0
        }
    }

    public func value(_ labels: [String] = []) -> Double {
        registry.read { $0[index].scalars[labels] ?? 0 }
    }

    /// Every series, by label values.
    public func values() -> [[String]: Double] { registry.read { $0[index].scalars } }
}

/// A value that goes up and down (lag, sessions tracked, an info flag).
public struct Gauge: Sendable {
    let registry: MetricsRegistry
    let index: Int

    public func set(_ value: Double, _ labels: [String] = []) {
        registry.update(index) { family in
            family.checkLabels(labels)
            family.scalars[labels] = value
        }
    }

    /// Replaces every series at once: series missing from `series` disappear (a partition no
    /// longer owned stops being reported instead of showing its last lag forever).
    public func replaceAll(_ series: [[String]: Double]) {
        registry.update(index) { family in
            for labels in series.keys { family.checkLabels(labels) }
            family.scalars = series
        }
    }

    /// Replaces the series whose labels match `filter`, leaving the others (another client's) alone.
    public func replace(where filter: ([String]) -> Bool, with series: [[String]: Double]) {
        registry.update(index) { family in
            for labels in series.keys { family.checkLabels(labels) }
            family.scalars = family.scalars.filter { !filter($0.key) }.merging(series) { _, new in new }
        }
    }

    public func value(_ labels: [String] = []) -> Double? { registry.read { $0[index].scalars[labels] } }
    public func values() -> [[String]: Double] { registry.read { $0[index].scalars } }
}

/// Observations sorted into buckets, with their sum and count (durations, in seconds).
public struct Histogram: Sendable {
    let registry: MetricsRegistry
    let index: Int

    public func observe(_ value: Double, _ labels: [String] = []) {
        guard !value.isNaN else { return }
        registry.update(index) { family in
            family.checkLabels(labels)
            guard case .histogram(let bounds) = family.kind else { return }
            family.histograms[labels, default: HistogramSeries(bucketCount: bounds.count)].observe(value, bounds: bounds)
        }
    }

    /// How many observations were made in the series.
    public func count(_ labels: [String] = []) -> UInt64 { registry.read { $0[index].histograms[labels]?.count ?? 0 } }
}
