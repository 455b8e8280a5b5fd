/// One partition of one topic: the unit Kafka assigns, orders and commits.
public struct KafkaTopicPartition: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let topic: String
    public let partition: Int32

    public init(_ topic: String, _ partition: Int32) {
        self.topic = topic
        self.partition = partition
    }

    public var description: String { "\(topic)[\(partition)]" }

    // A client's maps keyed by partition hold one topic or a few, and are asked once or more per
    // record: hashing the partition number alone spares hashing the topic's name every time.
    // Equal values still hash alike; two topics' same partition are told apart by `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(partition) }

    public static func == (lhs: KafkaTopicPartition, rhs: KafkaTopicPartition) -> Bool {
        lhs.partition == rhs.partition && lhs.topic == rhs.topic
    }

    public static func < (lhs: KafkaTopicPartition, rhs: KafkaTopicPartition) -> Bool {
        (lhs.topic, lhs.partition) < (rhs.topic, rhs.partition)
    }
}
