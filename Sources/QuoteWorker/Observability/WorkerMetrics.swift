import Foundation
import ShippingRules
import Synchronization

/// The worker's metrics, kept in a Prometheus registry. Every event ends in exactly one outcome
/// (`update`, `keep`, `unserviceable`, `rejected`: it got a reply) or one drop reason (it got none),
/// so `eventsIn == outcomes + drops` once work is finished. A dead letter is counted twice: in
/// `dead_letters_total`, and as `rejected` when it was answered or `unanswerable` when it was not.
public final class WorkerMetrics: Sendable {
    public struct Snapshot: Sendable, Equatable {
        public var eventsIn = 0
        /// Events that got a reply, by the reply's outcome.
        public var outcomes: [String: Int] = [:]
        public var drops: [DropReason: Int] = [:]
        /// Events that could not be read; each one went to the dead-letter topic, and is also counted
        /// as `rejected` (answered) or as the drop reason `unanswerable`.
        public var deadLetters = 0
        public var deliveryRetries = 0
        /// Records a broker refused for good (too large for it); logged with their source offset.
        public var abandonedRecords = 0
        public var trackedSessions = 0

        public var totalDrops: Int { drops.values.reduce(0, +) }
        public var totalOutcomes: Int { outcomes.values.reduce(0, +) }
    }

    public static let outcomeNames = QuoteOutcome.Kind.allCases.map(\.rawValue)

    /// Everything `/metrics` shows: the worker's series, `shipquote_build_info` and `process_*`.
    public let registry: MetricsRegistry
    /// The worker's liveness and readiness. It rides along with the metrics so that everything the
    /// worker reports goes through the one object it is handed.
    public let health: HealthState

    private let eventsIn: Counter
    private let outcomes: Counter
    private let drops: Counter
    private let deadLetters: Counter
    private let deliveryRetries: Counter
    private let abandonedRecords: Counter
    private let trackedSessions: Gauge
    private let quoteDuration: Histogram
    private let endToEnd: Histogram
    private let consumerLag: Gauge
    private let brokerRoundTrip: Gauge
    private let rulesInfo: Gauge
    private let rulesReloadFailures: Counter
    private let statisticsRejected: Counter

    public init(registry: MetricsRegistry = MetricsRegistry(), health: HealthState = HealthState()) {
        self.registry = registry
        self.health = health
        eventsIn = registry.counter("shipquote_events_received_total", help: "Records fetched from the input topic.")
        outcomes = registry.counter("shipquote_events_total",
                                    help: "Events that got a reply, by the reply's outcome (rejected: unreadable, dead-lettered and answered). "
                                        + "Every event received ends in exactly one outcome here or one reason in shipquote_dropped_events_total.",
                                    labels: ["outcome"])
        drops = registry.counter("shipquote_dropped_events_total",
                                 help: "Events that got no reply, by reason (stale, duplicate, superseded, expired; "
                                     + "unanswerable: dead-lettered without a reply, its session or sequence unreadable or not the newest).",
                                 labels: ["reason"])
        deadLetters = registry.counter("shipquote_dead_letters_total",
                                       help: "Records written unchanged to the dead-letter topic; each is also counted as "
                                           + "shipquote_events_total{outcome=\"rejected\"} or shipquote_dropped_events_total{reason=\"unanswerable\"}.")
        deliveryRetries = registry.counter("shipquote_delivery_retries_total",
                                           help: "Replies produced again after librdkafka gave up delivering them.")
        abandonedRecords = registry.counter("shipquote_abandoned_records_total",
                                            help: "Records a broker refused for good (too large); logged with their source offset.")
        trackedSessions = registry.gauge("shipquote_tracked_sessions", help: "Sessions whose highest sequence the worker holds.")
        quoteDuration = registry.histogram("shipquote_quote_duration_seconds", help: "Time to compute one quote with the rules.",
                                           buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1])
        endToEnd = registry.histogram("shipquote_end_to_end_seconds",
                                      help: "From the event's occurred_at to its reply being published.",
                                      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30])
        consumerLag = registry.gauge("shipquote_consumer_lag",
                                     help: "Records behind the partition's high watermark, from librdkafka statistics.",
                                     labels: ["topic", "partition"])
        brokerRoundTrip = registry.gauge("shipquote_broker_rtt_seconds",
                                         help: "Broker round-trip time: median of librdkafka's rtt window (a consumer's from its group "
                                             + "coordinator connection, where no fetch long-poll waits); the last measured value while a window is empty.",
                                         labels: ["broker", "client"])
        rulesInfo = registry.gauge("shipquote_rules_info", help: "The rule set in use (value 1), by version.", labels: ["version"])
        rulesReloadFailures = registry.counter("shipquote_rules_reload_failures_total",
                                               help: "Rule files that changed but failed to load; the previous rules stay in use.")
        statisticsRejected = registry.counter("shipquote_kafka_statistics_errors_total",
                                              help: "librdkafka statistics documents that could not be read.")
        registry.sampled("shipquote_build_info", help: "This build (value 1): its version, source revision and the librdkafka loaded.",
                         type: .gauge, labels: ["version", "revision", "librdkafka"]) {
            let build = BuildInfo.current
            return [[build.version ?? "unknown", build.revision ?? "unknown", BuildInfo.librdkafka]: 1]
        }
        ProcessMetrics.register(in: registry)
        for name in Self.outcomeNames { outcomes.touch([name]) }
        for reason in DropReason.allCases { drops.touch([reason.rawValue]) }
    }

    // MARK: - Counting events (called by the worker loop)

    public func eventReceived(count: Int = 1) { eventsIn.increment(by: Double(count)) }
    public func finished(_ outcome: String, count: Int = 1) { outcomes.increment([outcome], by: Double(count)) }
    public func dropped(_ reason: DropReason, count: Int = 1) { drops.increment([reason.rawValue], by: Double(count)) }
    public func deadLettered(count: Int = 1) { deadLetters.increment(by: Double(count)) }
    public func abandonedRecord() { abandonedRecords.increment() }
    public func retriedDelivery() { deliveryRetries.increment() }
    public func setTrackedSessions(_ n: Int) { trackedSessions.set(Double(n)) }

    // MARK: - Timings

    public func observeQuoteDuration(seconds: Double) { quoteDuration.observe(seconds) }
    public func observeQuoteDuration(_ duration: Duration) { quoteDuration.observe(duration.seconds) }
    /// From `occurred_at` (the gateway's clock) to publishing; clocks apart can make it negative,
    /// which lands in the lowest bucket rather than being hidden.
    public func observeEndToEnd(seconds: Double) { endToEnd.observe(seconds) }

    // MARK: - Rules

    /// The rules in use: sets `shipquote_rules_info` and marks the rules loaded for readiness.
    public func rulesLoaded(version: String) {
        rulesInfo.replaceAll([[version]: 1])
        health.setRulesLoaded()
    }

    public func rulesReloadFailed() { rulesReloadFailures.increment() }

    // MARK: - librdkafka statistics

    /// Reads one statistics document (consumer or producer) and replaces that client's lag and
    /// round-trip series; partitions or brokers that are gone disappear. A broker whose window was
    /// empty (an idle producer sends nothing for a whole interval) keeps its last measured round trip:
    /// the series stays for alerts and graphs, and 0 would claim a broker faster than any.
    public func ingestStatistics(_ json: String) {
        guard let statistics = try? KafkaStatistics(json: json) else { return statisticsRejected.increment() }
        let client = statistics.clientType
        let previous = brokerRoundTrip.values()
        var trips: [[String]: Double] = [:]
        for trip in statistics.brokerRoundTrips {
            let labels = [trip.broker, client]
            if let seconds = trip.seconds ?? previous[labels] { trips[labels] = seconds }
        }
        brokerRoundTrip.replace(where: { $0[1] == client }, with: trips)
        if client == "consumer" {
            consumerLag.replaceAll(Dictionary(uniqueKeysWithValues: statistics.consumerLags.map {
                ([$0.topic, String($0.partition)], Double($0.lag))
            }))
        }
    }

    // MARK: - Reading

    public func snapshot() -> Snapshot {
        registry.read { families in
            var s = Snapshot()
            s.eventsIn = Int(families[eventsIn.index].scalars[[]] ?? 0)
            for (labels, value) in families[outcomes.index].scalars where value > 0 { s.outcomes[labels[0]] = Int(value) }
            for (labels, value) in families[drops.index].scalars where value > 0 {
                if let reason = DropReason(rawValue: labels[0]) { s.drops[reason] = Int(value) }
            }
            s.deadLetters = Int(families[deadLetters.index].scalars[[]] ?? 0)
            s.deliveryRetries = Int(families[deliveryRetries.index].scalars[[]] ?? 0)
            s.abandonedRecords = Int(families[abandonedRecords.index].scalars[[]] ?? 0)
            s.trackedSessions = Int(families[trackedSessions.index].scalars[[]] ?? 0)
            return s
        }
    }
}

extension Duration {
    /// The duration in seconds, as a metric wants it.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
