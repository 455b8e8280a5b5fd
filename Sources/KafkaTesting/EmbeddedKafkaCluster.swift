import CRdKafkaMock
import Kafka

/// librdkafka's mock cluster: real Kafka protocol over TCP on 127.0.0.1, with consumer groups,
/// idempotence and fault injection, inside this process. For demos, tests and benchmarks.
/// Sendable: its state is immutable after init, and librdkafka's mock calls lock the cluster themselves.
public final class EmbeddedKafkaCluster: @unchecked Sendable {
    /// The client handle the cluster lives in (librdkafka's design); ours, destroyed after the cluster.
    private let owner: OpaquePointer
    private let cluster: OpaquePointer
    public let brokerCount: Int
    /// `host:port,…` for `bootstrap.servers`.
    public let bootstrapServers: String

    public init(brokers: Int = 1, topics: [KafkaTopicSpec] = []) throws(KafkaError) {
        var config = KafkaConfiguration()
        config["log_level"] = "3"  // the mock cluster is chatty at info level
        owner = try makeProducerHandle(config)
        guard let cluster = rd_kafka_mock_cluster_new(owner, Int32(brokers)) else {
            rd_kafka_destroy(owner)
            throw KafkaError(code: RD_KAFKA_RESP_ERR__FAIL.rawValue, context: "start the embedded mock cluster")
        }
        self.cluster = cluster
        brokerCount = brokers
        bootstrapServers = String(cString: rd_kafka_mock_cluster_bootstraps(cluster))
        for topic in topics { try createTopic(topic) }
    }

    deinit {
        rd_kafka_mock_cluster_destroy(cluster)
        rd_kafka_destroy(owner)
    }

    public func createTopic(_ spec: KafkaTopicSpec) throws(KafkaError) {
        let err = rd_kafka_mock_topic_create(cluster, spec.name, Int32(spec.partitions),
                                             Int32(min(spec.replicationFactor, brokerCount)))
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(code: err.rawValue, context: "create topic \(spec.name)") }
    }

    /// Broker ids are 1…brokerCount.
    public func setBrokerDown(_ id: Int32) { _ = rd_kafka_mock_broker_set_down(cluster, id) }
    public func setBrokerUp(_ id: Int32) { _ = rd_kafka_mock_broker_set_up(cluster, id) }
    public func setRoundTripTime(broker id: Int32, milliseconds: Int) { _ = rd_kafka_mock_broker_set_rtt(cluster, id, Int32(milliseconds)) }

    public func setLeader(topic: String, partition: Int32, broker id: Int32) {
        _ = rd_kafka_mock_partition_set_leader(cluster, topic, partition, id)
    }

    /// Pins a consumer group's coordinator to one broker (otherwise chosen by hashing the group id),
    /// so a test can take other brokers down without moving the group.
    public func setGroupCoordinator(_ group: String, broker id: Int32) {
        _ = rd_kafka_mock_coordinator_set(cluster, "group", group, id)
    }

    /// Makes the next `errors.count` requests of one API (by Kafka API key: 0 Produce, 1 Fetch,
    /// 8 OffsetCommit, …) fail with these error codes, in order.
    public func failNextRequests(apiKey: Int16, withErrorCodes errors: [Int32]) {
        let codes = errors.map { rd_kafka_resp_err_t(rawValue: $0) }
        codes.withUnsafeBufferPointer { shipquote_mock_push_errors(cluster, apiKey, $0.count, $0.baseAddress) }
    }
}
