import Foundation

/// Every default the worker runs with, in one place: `WorkerConfiguration`'s initialiser and the
/// `shipquote run` settings (`--help`, `--print-config`) both read them from here.
public enum WorkerDefaults {
    public static let groupID = "shipquote"
    /// The most records handled in one turn of the loop: under a backlog a larger batch conflates
    /// more superseded addresses; it also bounds how long one turn takes.
    public static let maxBatch = 2000
    /// How long one poll waits for the first record (a delivery report the loop must act on wakes it
    /// sooner); also how late, at most, a finished offset is seen when no records come.
    public static let pollTimeoutMs: Int32 = 100
    public static let commitInterval: Duration = .milliseconds(200)
    /// Apple Pay dismisses a sheet that waits much longer; an answer after that helps nobody.
    public static let defaultTimeToLiveSeconds = 30
    public static let shutdownGraceSeconds = 10
    public static let sessionIdleTimeoutSeconds = 3600
    public static let sessionSweepInterval: Duration = .seconds(60)
    public static let restoreTimeout: Duration = .seconds(120)
    public static let healthStaleAfterSeconds = 30
    public static let statisticsIntervalMs = 15_000
    /// State records go through a producer of their own with this `linger.ms`: they are read only
    /// when a partition changes hands, so they can wait to share a request. Produced with the
    /// replies' 1 ms linger, each answer cost the broker two requests (librdkafka sends a request
    /// per partition) and the replies shared their producer's turns with them; batched, the
    /// replies' p50 at 5,000 events/s went from 1.15–1.19× to 1.07–1.08× the echo's (README,
    /// Benchmark, the ninth round). An offset is
    /// committed once its state is delivered, so commits trail by up to this much more.
    public static let stateLingerMs = 100
    /// The most `state-linger` may be: a longer wait only holds commits back (and makes the replay
    /// after a crash longer) without saving requests that matter.
    public static let maxStateLingerMs = 10_000

    /// librdkafka properties of the worker's consumer unless configured otherwise, with the reason
    /// for each. librdkafka's own defaults suit batch consumers: with them a crashed worker's
    /// partitions go unanswered for 45 s or more, long after the sheet is gone.
    public static let consumerProperties: [(key: String, value: String, why: String)] = [
        ("session.timeout.ms", "6000",
         "a crashed worker's partitions are taken over after at most this long (6 s is the broker's usual minimum)"),
        ("heartbeat.interval.ms", "1000", "a third of the session timeout or less, so one lost heartbeat is not fatal"),
        ("max.poll.interval.ms", "30000",
         "a turn handles at most max-batch events (tens of milliseconds), so minutes protect nothing; this is also "
            + "the stall watchdog's limit and the group's rebalance timeout"),
    ]

    /// librdkafka properties of the worker's producer unless configured otherwise.
    public static let producerProperties: [(key: String, value: String, why: String)] = [
        ("linger.ms", "1", "a latency-bound service: replies should not wait for company"),
        ("message.max.bytes", "2097152", "a dead letter carries the original event (up to 1 MiB) plus headers"),
        ("partitioner", "murmur2_random", "replies land where Java's partitioner puts their key (docs/contract.md); state records name their partition"),
    ]
}
