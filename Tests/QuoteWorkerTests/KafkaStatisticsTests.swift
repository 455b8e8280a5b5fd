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
       "127.0.0.1:39201/1":{"name":"127.0.0.1:39201/1","nodeid":1,"rtt":{"min":80,"max":900,"avg":250,"cnt":12}},
       "127.0.0.1:39202/2":{"name":"127.0.0.1:39202/2","nodeid":2,"rtt":{"min":0,"max":0,"avg":0,"cnt":0}},
       "GroupCoordinator":{"name":"GroupCoordinator","nodeid":1,"rtt":{"avg":100,"cnt":3}}},
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
        #expect(samples["shipquote_broker_rtt_seconds{broker=\"127.0.0.1:39201/1\",client=\"consumer\"}"] == 0.00025)
        #expect(samples.keys.filter { $0.hasPrefix("shipquote_broker_rtt_seconds{") }.count == 1)
    }

    @Test func aPartitionNoLongerOwnedDisappearsAndAProducerDocumentLeavesLagAlone() throws {
        let metrics = WorkerMetrics()
        metrics.ingestStatistics(Self.consumerDocument)
        metrics.ingestStatistics(#"{"type":"consumer","brokers":{},"topics":{}}"#)
        metrics.ingestStatistics(Self.consumerDocument.replacingOccurrences(of: "\"type\":\"consumer\"", with: "\"type\":\"producer\""))
        let samples = Scrape.parse(metrics.registry.exposition())
        #expect(samples.keys.filter { $0.hasPrefix("shipquote_consumer_lag{") }.isEmpty)
        #expect(samples["shipquote_broker_rtt_seconds{broker=\"127.0.0.1:39201/1\",client=\"producer\"}"] == 0.00025)
        #expect(samples["shipquote_kafka_statistics_errors_total"] == 0)
        metrics.ingestStatistics("{not json")
        #expect(Scrape.parse(metrics.registry.exposition())["shipquote_kafka_statistics_errors_total"] == 1)
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
