import Synchronization

/// Counters, gauges and histograms with labels, rendered in the Prometheus text exposition
/// format 0.0.4. One lock guards every family, so a scrape and `WorkerMetrics.snapshot()` see
/// one consistent moment (an event is never counted in and not yet out of a scrape's totals).
public final class MetricsRegistry: Sendable {
    private let families = Mutex<[MetricFamily]>([])

    public init() {}

    public func counter(_ name: String, help: String, labels: [String] = []) -> Counter {
        Counter(registry: self, index: register(name, help: help, kind: .counter, labels: labels))
    }

    public func gauge(_ name: String, help: String, labels: [String] = []) -> Gauge {
        Gauge(registry: self, index: register(name, help: help, kind: .gauge, labels: labels))
    }

    /// `buckets` are the upper bounds, ascending; `+Inf` is always added.
    public func histogram(_ name: String, help: String, labels: [String] = [], buckets: [Double]) -> Histogram {
        precondition(!buckets.isEmpty && buckets == buckets.sorted() && Set(buckets).count == buckets.count,
                     "histogram \(name): buckets must be distinct and ascending")
        precondition(!labels.contains("le"), "histogram \(name): the label le is reserved for buckets")
        let bounds = buckets.last == .infinity ? Array(buckets.dropLast()) : buckets
        return Histogram(registry: self, index: register(name, help: help, kind: .histogram(bounds: bounds), labels: labels))
    }

    /// A counter or gauge whose series are read when scraped (`/proc/self`, build facts) rather
    /// than updated as things happen. `read` runs outside the registry's lock, once per scrape.
    public func sampled(_ name: String, help: String, type: SampledType, labels: [String] = [],
                        read: @escaping @Sendable () -> [[String]: Double]) {
        let index = register(name, help: help, kind: type == .counter ? .counter : .gauge, labels: labels)
        families.withLock {
            $0[index].scalars = [:]
            $0[index].sample = read
        }
    }

    public enum SampledType: Sendable { case counter, gauge }

    /// Every family in registration order, in the text format Prometheus scrapes.
    public func exposition() -> String {
        let samplers = families.withLock { all in all.indices.compactMap { i in all[i].sample.map { (i, $0) } } }
        let readings = samplers.map { ($0.0, $0.1()) }
        return families.withLock { all in
            for (index, series) in readings {
                for labels in series.keys { all[index].checkLabels(labels) }
                all[index].scalars = series
            }
            var out = ""
            for family in all { PrometheusText.append(family, to: &out) }
            return out
        }
    }

    /// The content type that goes with `exposition()`.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    func update<T>(_ index: Int, _ body: (inout MetricFamily) -> T) -> T {
        families.withLock { body(&$0[index]) }
    }

    func read<T>(_ body: ([MetricFamily]) -> T) -> T {
        families.withLock { body($0) }
    }

    private func register(_ name: String, help: String, kind: MetricFamily.Kind, labels: [String]) -> Int {
        precondition(PrometheusText.isValidMetricName(name), "metric name \(name) is not [a-zA-Z_:][a-zA-Z0-9_:]*")
        for label in labels {
            precondition(PrometheusText.isValidLabelName(label), "metric \(name): label \(label) is not a valid label name")
        }
        return families.withLock { all in
            precondition(!all.contains { $0.name == name }, "metric \(name) is registered twice")
            var family = MetricFamily(name: name, help: help, kind: kind, labelNames: labels)
            // A series without labels exists from the start, at 0: a scrape never misses it.
            if labels.isEmpty {
                if case .histogram(let bounds) = kind { family.histograms[[]] = HistogramSeries(bucketCount: bounds.count) }
                else { family.scalars[[]] = 0 }
            }
            all.append(family)
            return all.count - 1
        }
    }
}
