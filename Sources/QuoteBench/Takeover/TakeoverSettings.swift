import Kafka

/// What `shipquote bench takeover` was asked to do. The workers run with the product's group
/// timings (session.timeout.ms, heartbeat.interval.ms, max.poll.interval.ms): those are refused
/// in `-X`, so the figure is always the defaults'.
public struct TakeoverSettings: Sendable {
    public var workers = 3
    public var partitions = 8
    public var sessions = 3_000
    public var events = 24_000
    /// Events per second, on a fixed schedule.
    public var rate = 1_500
    public var burstFraction = 0.1
    /// The share of the events produced before one worker is killed.
    public var killAfter = 0.25
    public var rulesPath = "examples/rules/us-acme.yaml"
    /// After the last event, how long every latest address may take to be answered.
    public var drainTimeout: Double = 60
    /// Every partition of the killed worker should be answered again within this many seconds.
    public var target: Double = 10
    /// `-X` for the workers (and the bench's own clients): embedded-broker settings such as `fetch.wait.max.ms=5`.
    public var kafkaAssignments = ["fetch.wait.max.ms=5"]
    /// The `shipquote` binary the broker and workers are started from.
    public var executable = ""

    public init() {}

    static let groupTimings: Set<String> = ["session.timeout.ms", "heartbeat.interval.ms", "max.poll.interval.ms",
                                            "group.instance.id", "partition.assignment.strategy"]

    public func validate() throws(BenchSettingsError) {
        guard workers >= 2, partitions > 0, sessions > 0, events > 0, rate > 0, drainTimeout >= 0, target > 0 else {
            throw BenchSettingsError("bench takeover: --workers must be at least 2; --partitions, --sessions, --events and --rate positive")
        }
        guard (0...1).contains(burstFraction) else { throw BenchSettingsError("--burst-fraction must be between 0 and 1") }
        guard killAfter > 0, killAfter < 1 else { throw BenchSettingsError("--kill-after must be between 0 and 1 (a share of the events)") }
        for assignment in kafkaAssignments {
            guard let (key, _) = try? KafkaConfiguration.parseAssignment(assignment) else {
                throw BenchSettingsError("-X expects key=value, got \(assignment)")
            }
            if Self.groupTimings.contains(key) {
                throw BenchSettingsError("bench takeover measures the product's group settings: -X \(key) is not allowed")
            }
        }
    }
}
