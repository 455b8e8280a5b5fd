import Kafka

/// The echo worker's batches whose replies are on their way, oldest first: offsets are committed
/// only up to the last batch whose replies are all delivered, as the worker does.
struct CommitQueue {
    struct Batch {
        /// Replies of the batch still awaiting their delivery report.
        let remaining: BenchCounter
        let offsets: [KafkaTopicPartition: Int64]
    }

    private var inFlight: [Batch] = []

    mutating func append(_ batch: Batch) { inFlight.append(batch) }

    /// The offsets of the head batches that are all delivered, merged (highest wins), and forgets them.
    mutating func takeDelivered() -> [KafkaTopicPartition: Int64] {
        var committable: [KafkaTopicPartition: Int64] = [:]
        while let head = inFlight.first, head.remaining.count <= 0 {
            committable.merge(head.offsets) { max($0, $1) }
            inFlight.removeFirst()
        }
        return committable
    }
}
