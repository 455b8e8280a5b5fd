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
    /// The state producer's `linger.ms`: how long a state record may wait to share a request.
    public var stateLinger: Duration
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
                maxBatch: Int = WorkerDefaults.maxBatch, pollTimeoutMs: Int32 = WorkerDefaults.pollTimeoutMs,
                commitInterval: Duration = WorkerDefaults.commitInterval,
                defaultTimeToLive: TimeInterval? = TimeInterval(WorkerDefaults.defaultTimeToLiveSeconds),
                shutdownGrace: Duration = .seconds(WorkerDefaults.shutdownGraceSeconds),
                sessionIdleTimeout: TimeInterval = TimeInterval(WorkerDefaults.sessionIdleTimeoutSeconds),
                sessionSweepInterval: Duration = WorkerDefaults.sessionSweepInterval,
                restoreTimeout: Duration = WorkerDefaults.restoreTimeout,
                stateLinger: Duration = .milliseconds(WorkerDefaults.stateLingerMs)) {
        self.stateLinger = stateLinger
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
        let configured = kafka["max.poll.interval.ms"] ?? WorkerDefaults.consumerProperties.first { $0.key == "max.poll.interval.ms" }?.value
        return .milliseconds(configured.flatMap(Int64.init) ?? 300_000)
    }

    /// The consumer's properties: the shared ones plus the group, under ShipQuote's consumer
    /// policy, without the producer's properties. Throws when an operator's value breaks the policy.
    public var consumerKafka: KafkaConfiguration {
        get throws(KafkaError) {
            var c = kafka
            c.setDefault("group.id", WorkerDefaults.groupID)
            for property in WorkerDefaults.consumerProperties { c.setDefault(property.key, property.value) }
            do {
                return try ConsumerPolicy.shipQuote.applied(to: c).scoped(to: .consumer)
            } catch {
                // The worker's clients fail with KafkaError; the policy's message names the property.
                throw .invalidConfiguration(error.description)
            }
        }
    }

    /// The producer's properties: the shared ones without the consumer's, so librdkafka does not warn.
    /// Replies and dead letters go through it.
    public var producerKafka: KafkaConfiguration {
        var c = kafka.scoped(to: .producer)
        for property in WorkerDefaults.producerProperties { c.setDefault(property.key, property.value) }
        return c
    }

    /// The state producer's properties: the producer's (security, idempotence, partitioner), with
    /// `stateLinger` as its linger, whatever the replies' is, and without statistics (the
    /// metrics read the reply producer's).
    public var stateProducerKafka: KafkaConfiguration {
        var c = producerKafka
        c.override("linger.ms", String(WorkerFailure.milliseconds(stateLinger)))
        c["statistics.interval.ms"] = nil
        return c
    }
}
