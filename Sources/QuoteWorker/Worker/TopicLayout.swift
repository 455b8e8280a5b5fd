import Kafka
import QuoteContract

/// The topics a worker needs, as they must be created: input, replies and state share a
/// partition count (a partition's sequence state lives in the state partition of the same
/// number), the state is compacted, and the dead letters need one partition.
public enum TopicLayout {
    public static func specs(_ topics: Topics, partitions: Int, replicationFactor: Int = 1) -> [KafkaTopicSpec] {
        [
            KafkaTopicSpec(topics.addressChanged, partitions: partitions, replicationFactor: replicationFactor),
            KafkaTopicSpec(topics.quoteReplies, partitions: partitions, replicationFactor: replicationFactor),
            KafkaTopicSpec(topics.deadLetters, partitions: 1, replicationFactor: replicationFactor),
            KafkaTopicSpec(topics.quoteState, partitions: partitions, replicationFactor: replicationFactor,
                      config: ["cleanup.policy": "compact"]),
        ]
    }
}
