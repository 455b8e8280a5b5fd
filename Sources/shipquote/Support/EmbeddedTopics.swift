import Kafka
import QuoteContract

/// The contract's topics as the embedded broker creates them: input, replies and state share a
/// partition count (the state topic is co-partitioned with the input), and the state is compacted.
enum EmbeddedTopics {
    static func specs(_ topics: Topics, partitions: Int) -> [TopicSpec] {
        [
            TopicSpec(topics.addressChanged, partitions: partitions),
            TopicSpec(topics.quoteReplies, partitions: partitions),
            TopicSpec(topics.deadLetters, partitions: 1),
            TopicSpec(topics.quoteState, partitions: partitions, config: ["cleanup.policy": "compact"]),
        ]
    }

    /// Client settings that suit the embedded broker: the 2.0.2 mock cluster holds an empty fetch
    /// for the whole `fetch.wait.max.ms`, so the default 500 ms would show as latency on every hop.
    static func clientDefaults(bootstrap: String) -> KafkaConfiguration {
        KafkaConfiguration([
            "bootstrap.servers": bootstrap,
            "fetch.wait.max.ms": "1",
            "session.timeout.ms": "6000",
            "heartbeat.interval.ms": "500",
        ])
    }
}
