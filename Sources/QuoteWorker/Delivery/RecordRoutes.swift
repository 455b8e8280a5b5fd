import Kafka

/// Which producer carries a record: the state topic's records (state and tombstones) go through
/// the state producer, whose linger batches them; replies and dead letters through the reply
/// producer, which sends at once. Each topic has one producer, so a partition's records keep
/// their order (and idempotence) as before.
public final class RecordRoutes: RecordSink {
    private let replies: any RecordSink
    private let state: any RecordSink
    private let stateTopic: String

    public init(replies: any RecordSink, state: any RecordSink, stateTopic: String) {
        self.replies = replies
        self.state = state
        self.stateTopic = stateTopic
    }

    public func sendIfRoom(_ message: KafkaOutgoingMessage,
                           completion: @escaping @Sendable (KafkaDeliveryReport) -> Void) throws(KafkaError) -> Bool {
        try (message.topic == stateTopic ? state : replies).sendIfRoom(message, completion: completion)
    }

    /// Records queued in both producers.
    public var queueLength: Int { replies.queueLength + state.queueLength }
}
