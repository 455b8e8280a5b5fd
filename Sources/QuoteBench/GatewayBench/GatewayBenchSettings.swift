/// What `shipquote bench gateway` was asked to measure; the executable fills it from its flags
/// and calls `validate()`.
public struct GatewayBenchSettings: Sendable {
    public var workers = 1
    public var rulesPath = "examples/rules/us-acme.yaml"
    public var sessions = 1_000
    /// Each rate runs the Kafka-only path, then HTTP. 1,000/s first: the target is there.
    public var rates: [BenchSettings.Rate] = [.fixed(1_000), .max]
    public var burstFraction = 0.1
    /// Calls a phase makes at most.
    public var requests = 10_000
    /// Calls under way at once: HTTP connections (kept alive), or callers of the gateway library.
    public var connections = 32
    /// A phase starts no call after this many seconds, whatever `requests` says.
    public var durationLimit: Double = 30
    public var partitions = 8
    public var json = false
    /// `-X key=value`: librdkafka properties for every client of the run.
    public var kafkaAssignments: [String] = []

    public init() {}

    public func validate() throws(BenchSettingsError) {
        guard workers > 0, sessions > 0, requests > 0, connections > 0, partitions > 0, durationLimit > 0 else {
            throw BenchSettingsError("bench gateway: --workers, --sessions, --requests, --connections, --partitions and --duration-limit must be positive")
        }
        guard connections <= 512 else {
            throw BenchSettingsError("bench gateway: --connections may be at most 512, the gateway's default max-in-flight")
        }
        guard (0...1).contains(burstFraction) else { throw BenchSettingsError("--burst-fraction must be between 0 and 1") }
        if rates.isEmpty { throw BenchSettingsError("--rate needs at least one rate") }
    }

    /// The embedded broker's part of the end-to-end bench's settings.
    var brokerSettings: BenchSettings {
        var s = BenchSettings()
        s.partitions = partitions
        s.kafkaAssignments = kafkaAssignments
        return s
    }
}
