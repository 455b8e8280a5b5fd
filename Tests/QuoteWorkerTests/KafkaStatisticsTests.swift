import Foundation
import MetricsHTTP
import QuoteWorker
import Testing

/// Consumer lag and broker round-trips, read from librdkafka's statistics JSON.
@Suite(.serialized) struct KafkaStatisticsTests {
    /// Trimmed from a librdkafka 2.0.2 consumer document (STATISTICS.md): bootstrap and coordinator
    /// entries have nodeid -1, GroupCoordinator is a logical broker, partition -1 is the unassigned-messages
    /// queue, lag -1 means no commit yet (then the distance from the low watermark) or nothing known.
    static let consumerDocument = """
    {"name":"rdkafka#consumer-1","client_id":"rdkafka","type":"consumer","ts":1,"time":1,
     "brokers":{
       "127.0.0.1:39201/bootstrap":{"name":"127.0.0.1:39201/bootstrap","nodeid":-1,"rtt":{"min":0,"max":0,"avg":0,"cnt":0}},
       "127.0.0.1:39201/1":{"name":"127.0.0.1:39201/1","nodeid":1,"rtt":{"min":80,"max":900,"avg":250,"p50":200,"cnt":12}},
       "127.0.0.1:39202/2":{"name":"127.0.0.1:39202/2","nodeid":2,"rtt":{"min":0,"max":0,"avg":0,"cnt":0}},
       "GroupCoordinator":{"name":"GroupCoordinator","nodeid":1,"rtt":{"avg":100,"p50":90,"cnt":3}}},
     "topics":{"shipping.address-changed":{"topic":"shipping.address-changed","partitions":{
       "0":{"partition":0,"fetch_state":"active","consumer_lag":7,"hi_offset":10},
       "1":{"partition":1,"fetch_state":"active","consumer_lag":-1,"committed_offset":-1001,"lo_offset":4,"hi_offset":9,"ls_offset":9},
       "3":{"partition":3,"fetch_state":"active","consumer_lag":-1,"committed_offset":-1001,"lo_offset":-1001,"hi_offset":-1001},
       "2":{"partition":2,"fetch_state":"none","consumer_lag":3},
       "-1":{"partition":-1,"fetch_state":"none","consumer_lag":-1}}}}}
    """

    @Test func lagPerOwnedPartitionAndRoundTripPerBroker() throws {
        let metrics = WorkerMetrics()
        metrics.ingestStatistics(Self.consumerDocument)
        let samples = Scrape.parse(metrics.registry.exposition())
        #expect(samples["shipquote_consumer_lag{partition=\"0\",topic=\"shipping.address-changed\"}"] == 7)
        #expect(samples["shipquote_consumer_lag{partition=\"1\",topic=\"shipping.address-changed\"}"] == 5)
        #expect(samples.keys.filter { $0.hasPrefix("shipquote_consumer_lag{") }.count == 2)
        // The consumer's from its coordinator connection, named as the broker behind it.
        #expect(samples["shipquote_broker_rtt_seconds{broker=\"127.0.0.1:39201/1\",client=\"consumer\"}"] == 0.00009)
        #expect(samples.keys.filter { $0.hasPrefix("shipquote_broker_rtt_seconds{") }.count == 1)
    }

    @Test func aPartitionNoLongerOwnedDisappearsAndAProducerDocumentLeavesLagAlone() throws {
        let metrics = WorkerMetrics()
        metrics.ingestStatistics(Self.consumerDocument)
        metrics.ingestStatistics(#"{"type":"consumer","brokers":{},"topics":{}}"#)
        metrics.ingestStatistics(Self.consumerDocument.replacingOccurrences(of: "\"type\":\"consumer\"", with: "\"type\":\"producer\""))
        let samples = Scrape.parse(metrics.registry.exposition())
        #expect(samples.keys.filter { $0.hasPrefix("shipquote_consumer_lag{") }.isEmpty)
        #expect(samples["shipquote_broker_rtt_seconds{broker=\"127.0.0.1:39201/1\",client=\"producer\"}"] == 0.0002)
        #expect(samples["shipquote_kafka_statistics_errors_total"] == 0)
        metrics.ingestStatistics("{not json")
        #expect(Scrape.parse(metrics.registry.exposition())["shipquote_kafka_statistics_errors_total"] == 1)
    }

    /// Documents librdkafka 2.0.2 wrote (Fixtures/statistics, recorded from a consumer in a group and
    /// a producer on the embedded two-broker cluster with default settings).
    static func recorded(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/statistics/\(name)", withExtension: "json"))
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func roundTrips(_ metrics: WorkerMetrics) -> [String: Double] {
        Scrape.parse(metrics.registry.exposition()).filter { $0.key.hasPrefix("shipquote_broker_rtt_seconds{") }
    }

    /// An idle consumer's broker windows hold only Fetch requests the broker kept for
    /// fetch.wait.max.ms (p50 501,759 µs, avg ~500,000 µs): not a round trip. Its coordinator
    /// connection (Heartbeat, OffsetCommit) is; while the group joins, a JoinGroup in that window pulls
    /// the mean to 600,316 µs, its median stays at 53 µs.
    @Test func aConsumerRoundTripComesFromItsCoordinatorConnectionNotTheFetchLongPoll() throws {
        let metrics = WorkerMetrics()
        metrics.ingestStatistics(try Self.recorded("consumer-joining"))
        #expect(Self.roundTrips(metrics) == ["shipquote_broker_rtt_seconds{broker=\"127.0.0.1:45495/1\",client=\"consumer\"}": 0.000053])
        metrics.ingestStatistics(try Self.recorded("consumer-idle"))
        #expect(Self.roundTrips(metrics) == ["shipquote_broker_rtt_seconds{broker=\"127.0.0.1:45495/1\",client=\"consumer\"}": 0.00013])
        let lags = Scrape.parse(metrics.registry.exposition()).filter { $0.key.hasPrefix("shipquote_consumer_lag{") }
        #expect(lags == ["shipquote_consumer_lag{partition=\"0\",topic=\"shipping.address-changed\"}": 0,
                         "shipquote_consumer_lag{partition=\"1\",topic=\"shipping.address-changed\"}": 0])
    }

    /// A producer with nothing to send has empty windows (cnt 0, every figure 0): each broker keeps the
    /// round trip last measured instead of disappearing or dropping to 0.
    @Test func anIdleProducerKeepsItsLastRoundTripPerBroker() throws {
        let metrics = WorkerMetrics()
        let busy: [String: Double] = ["shipquote_broker_rtt_seconds{broker=\"127.0.0.1:45495/1\",client=\"producer\"}": 0.000086,
                                      "shipquote_broker_rtt_seconds{broker=\"127.0.0.1:46021/2\",client=\"producer\"}": 0.000117]
        metrics.ingestStatistics(try Self.recorded("producer-busy"))
        #expect(Self.roundTrips(metrics) == busy)
        metrics.ingestStatistics(try Self.recorded("producer-idle"))
        #expect(Self.roundTrips(metrics) == busy)
        // The consumer's series sit beside the producer's without touching them.
        metrics.ingestStatistics(try Self.recorded("consumer-idle"))
        #expect(Self.roundTrips(metrics).count == 3)
        // A broker gone from the document is gone from the metrics; an idle one never measured has no series.
        metrics.ingestStatistics(#"{"type":"producer","brokers":{"127.0.0.1:45495/1":{"name":"127.0.0.1:45495/1","nodeid":1,"rtt":{"p50":0,"cnt":0}},"#
                                 + #""127.0.0.1:1/3":{"name":"127.0.0.1:1/3","nodeid":3,"rtt":{"p50":0,"cnt":0}}}}"#)
        #expect(Self.roundTrips(metrics).filter { $0.key.contains("producer") }
                == ["shipquote_broker_rtt_seconds{broker=\"127.0.0.1:45495/1\",client=\"producer\"}": 0.000086])
    }

    /// The real thing: a worker on the embedded broker with statistics every 100 ms.
    @Test func aRunningWorkerReportsLagForEachOwnedPartition() throws {
        let harness = try WorkerHarness(partitions: 2, kafkaOverrides: ["statistics.interval.ms": "100"])
        defer { harness.stop() }
        harness.awaitAssignment()
        harness.produce((0..<4).map { harness.record(harness.event(session: "stats-\($0)", sequence: 1)) })
        _ = harness.awaitFinished(4)
        let input = harness.topics.addressChanged
        let wanted = (0..<2).map { "shipquote_consumer_lag{partition=\"\($0)\",topic=\"\(input)\"}" }
        var samples: [String: Double] = [:]
        let deadline = Date().addingTimeInterval(30)
        repeat {
            samples = Scrape.parse(harness.worker.metrics.registry.exposition())
            if wanted.allSatisfy({ samples[$0] != nil }) && samples.keys.contains(where: { $0.hasPrefix("shipquote_broker_rtt_seconds{") }) { break }
            usleep(50_000)
        } while Date() < deadline
        for series in wanted { #expect(samples[series].map { $0 >= 0 } == true, "\(series) missing") }
        #expect(samples.keys.contains { $0.hasPrefix("shipquote_broker_rtt_seconds{") && $0.contains("client=\"consumer\"") })
        #expect(samples["shipquote_kafka_statistics_errors_total"] == 0)
    }
}
