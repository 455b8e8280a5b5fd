import QuoteWorker
import Testing

/// The Prometheus text exposition format 0.0.4, byte for byte.
@Suite struct MetricsRegistryTests {
    @Test func countersAndGaugesWithHelpTypeAndSortedSeries() {
        let registry = MetricsRegistry()
        let events = registry.counter("demo_events_total", help: "Events.\nSecond line with a \\ backslash.", labels: ["outcome"])
        let depth = registry.gauge("demo_depth", help: "Depth.")
        events.increment(["update"], by: 2)
        events.increment(["keep"])
        depth.set(-1.5)
        #expect(registry.exposition() == """
        # HELP demo_events_total Events.\\nSecond line with a \\\\ backslash.
        # TYPE demo_events_total counter
        demo_events_total{outcome="keep"} 1
        demo_events_total{outcome="update"} 2
        # HELP demo_depth Depth.
        # TYPE demo_depth gauge
        demo_depth -1.5

        """)
    }

    @Test func labelValuesEscapeBackslashQuoteAndNewline() {
        let registry = MetricsRegistry()
        registry.gauge("demo_info", help: "Info.", labels: ["version"]).set(1, ["a\"b\\c\nd"])
        #expect(registry.exposition().contains(#"demo_info{version="a\"b\\c\nd"} 1"#))
    }

    @Test func histogramBucketsAreCumulativeWithInfSumAndCount() {
        let registry = MetricsRegistry()
        let h = registry.histogram("demo_seconds", help: "Time.", buckets: [0.1, 1])
        for v in [0.05, 0.1, 0.5, 3] { h.observe(v) }
        #expect(registry.exposition() == """
        # HELP demo_seconds Time.
        # TYPE demo_seconds histogram
        demo_seconds_bucket{le="0.1"} 2
        demo_seconds_bucket{le="1"} 3
        demo_seconds_bucket{le="+Inf"} 4
        demo_seconds_sum 3.65
        demo_seconds_count 4

        """)
        #expect(h.count() == 4)
    }

    @Test func workerMetricsNamesFollowTheConventions() {
        let metrics = WorkerMetrics()
        metrics.finished("update")
        metrics.dropped(.stale)
        metrics.observeQuoteDuration(seconds: 0.0003)
        metrics.observeEndToEnd(seconds: 0.2)
        metrics.rulesLoaded(version: "sha256:abc")
        metrics.rulesReloadFailed()
        let text = metrics.registry.exposition()
        for line in ["shipquote_events_total{outcome=\"update\"} 1", "shipquote_dropped_events_total{reason=\"stale\"} 1",
                     "shipquote_dead_letters_total 0", "shipquote_quote_duration_seconds_count 1",
                     "shipquote_end_to_end_seconds_bucket{le=\"0.25\"} 1", "shipquote_rules_info{version=\"sha256:abc\"} 1",
                     "shipquote_rules_reload_failures_total 1", "shipquote_tracked_sessions 0"] {
            #expect(text.contains(line + "\n"), "\(line)")
        }
        // Every family is documented and typed; counters end in _total.
        let types = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ") }
        #expect(types.count == text.split(separator: "\n").filter { $0.hasPrefix("# HELP ") }.count)
        for t in types where t[3] == "counter" { #expect(t[2].hasSuffix("_total"), "\(t[2])") }
        #expect(metrics.snapshot().outcomes == ["update": 1])
        #expect(metrics.snapshot().drops == [.stale: 1])
    }
}
