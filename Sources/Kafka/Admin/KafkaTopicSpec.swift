/// A topic to create: name, partition count, replication, and topic-level settings
/// (`cleanup.policy=compact` for a changelog, say).
public struct KafkaTopicSpec: Sendable, Hashable {
    public let name: String
    public let partitions: Int
    public let replicationFactor: Int
    public let config: [String: String]

    public init(_ name: String, partitions: Int, replicationFactor: Int = 1, config: [String: String] = [:]) {
        self.name = name
        self.partitions = partitions
        self.replicationFactor = replicationFactor
        self.config = config
    }
}
