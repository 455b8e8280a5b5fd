import Kafka

/// Why a worker stopped by itself. The descriptions are what `shipquote run` prints before it exits
/// non-zero, so each says what happened and what a restart will do; none carries event contents.
public enum WorkerFailure: Error, CustomStringConvertible {
    /// librdkafka reported an error it cannot recover from: an idempotent producer out of sequence
    /// with the broker, a fenced producer or consumer. Such a client must be replaced.
    case kafkaClientFailed(KafkaError)
    /// One batch took longer than the limit (by default the consumer's `max.poll.interval.ms`).
    case stalled(elapsed: Duration, limit: Duration)

    public var description: String {
        switch self {
        case .kafkaClientFailed(let error):
            return "the Kafka client failed for good (\(error.name): \(error.message)); the worker stopped so that a "
                + "restart brings a new producer and consumer, and events left unfinished are answered after the restart"
        case .stalled(let elapsed, let limit):
            return "handling one batch took \(Self.milliseconds(elapsed)) ms, over the limit of \(Self.milliseconds(limit)) ms "
                + "(max.poll.interval.ms); the worker left its consumer group so that others take its partitions, and stopped"
        }
    }

    static func milliseconds(_ d: Duration) -> Int64 {
        let c = d.components
        return c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000
    }
}
