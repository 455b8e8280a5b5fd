/// A change of what this consumer owns. The handler runs synchronously inside `poll`, before
/// librdkafka applies the change, so a revoke can still commit and an assign can restore state
/// before the first record of a partition is handed out.
public enum KafkaRebalanceEvent: Sendable, Equatable {
    case assigned([KafkaTopicPartition])
    case revoked([KafkaTopicPartition])
}
