import Foundation
import Kafka
import QuoteContract

public struct WorkerConfiguration: Sendable {
    /// The contract's four topics; each name can be overridden.
    public var topics: Topics
    /// librdkafka properties for both the consumer and the producer (`bootstrap.servers`,
    /// security settings, tuning). `group.id` defaults to `shipquote`.
    public var kafka: KafkaConfiguration
    /// The most records handled in one turn of the loop.
    public var maxBatch: Int
    /// How long one poll waits for the first record.
    public var pollTimeoutMs: Int32
    /// How often finished offsets are committed.
    public var commitInterval: Duration
    /// An event without `reply_by` expires this long after `occurred_at`; nil: never.
    public var defaultTimeToLive: TimeInterval?
    /// How long a shutdown may take to deliver what is in flight.
    public var shutdownGrace: Duration
    /// A session not seen for this long is forgotten, and its state deleted (a tombstone).
    public var sessionIdleTimeout: TimeInterval
    /// How often idle sessions are looked for.
    public var sessionSweepInterval: Duration
    /// The longest a partition's state may take to restore on assignment before the worker gives up.
    public var restoreTimeout: Duration
    /// Fetching pauses when this many records wait to be produced, and resumes at half of it.
    /// nil: half of the producer's `queue.buffering.max.messages` (librdkafka's default 100,000).
    public var pauseFetchingAt: Int? = nil
    /// The longest one batch may take before the watchdog takes the worker out of its group and
    /// stops it. nil: the consumer's `max.poll.interval.ms` (librdkafka's default 300,000 ms).
    public var stallLimit: Duration? = nil

    public init(topics: Topics = .defaults, kafka: KafkaConfiguration = KafkaConfiguration(),
                maxBatch: Int = 2000, pollTimeoutMs: Int32 = 100, commitInterval: Duration = .milliseconds(200),
                defaultTimeToLive: TimeInterval? = 30, shutdownGrace: Duration = .seconds(10),
                sessionIdleTimeout: TimeInterval = 3600, sessionSweepInterval: Duration = .seconds(60),
                restoreTimeout: Duration = .seconds(120)) {
        self.sessionIdleTimeout = sessionIdleTimeout
        self.sessionSweepInterval = sessionSweepInterval
        self.restoreTimeout = restoreTimeout
        self.topics = topics
        self.kafka = kafka
        self.maxBatch = maxBatch
        self.pollTimeoutMs = pollTimeoutMs
        self.commitInterval = commitInterval
        self.defaultTimeToLive = defaultTimeToLive
        self.shutdownGrace = shutdownGrace
    }

    /// The producer queue length at which fetching pauses.
    var effectivePauseFetchingAt: Int {
        if let pauseFetchingAt { return pauseFetchingAt }
        let queueMax = producerKafka["queue.buffering.max.messages"].flatMap(Int.init) ?? 100_000
        return max(1, queueMax / 2)
    }

    var effectiveStallLimit: Duration {
        if let stallLimit { return stallLimit }
        return .milliseconds(kafka["max.poll.interval.ms"].flatMap(Int64.init) ?? 300_000)
    }

    /// The consumer's properties: the shared ones plus the group, under ShipQuote's consumer
    /// policy, without the producer's properties. Throws when an operator's value breaks the policy.
    public var consumerKafka: KafkaConfiguration {
        get throws(KafkaError) {
            var c = kafka
            c.setDefault("group.id", "shipquote")
            do {
                return try ConsumerPolicy.shipQuote.applied(to: c).scoped(to: .consumer)
            } catch {
                // The worker's clients fail with KafkaError; the policy's message names the property.
                throw .invalidConfiguration(error.description)
            }
        }
    }

    /// The producer's properties: the shared ones without the consumer's, so librdkafka does not warn.
    public var producerKafka: KafkaConfiguration {
        var c = kafka.scoped(to: .producer)
        c.setDefault("linger.ms", "1")  // a latency-bound service: replies should not wait for company
        // A dead letter carries the original bytes, and an event may be up to 1 MiB plus headers.
        c.setDefault("message.max.bytes", "2097152")
        return c
    }
}
