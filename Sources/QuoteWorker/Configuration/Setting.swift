import Foundation
import QuoteContract

/// One setting of `shipquote run`: the same name as a flag (`--name`), an environment variable
/// (`SHIPQUOTE_NAME`, dashes as underscores) and a config-file key (`name=`).
public struct Setting: Sendable, Hashable {
    public let name: String
    public let placeholder: String
    public let help: String
    /// Shown by `--help` and used when no source sets it; nil: unset.
    public let defaultValue: String?
    /// `--print-config` shows `[redacted]` instead of the value (a password).
    public let isSecret: Bool

    public var flag: String { "--\(name)" }
    public var environmentName: String { "SHIPQUOTE_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }

    public init(_ name: String, _ placeholder: String, _ help: String, default defaultValue: String? = nil, secret: Bool = false) {
        self.name = name
        self.placeholder = placeholder
        self.help = help
        self.defaultValue = defaultValue
        self.isSecret = secret
    }

    public static let config = Setting("config", "FILE", "config file of key=value lines (settings, and kafka.<property>)")
    public static let rules = Setting("rules", "PATH", "a rules file, or a directory with one file per merchant")
    public static let bootstrapServers = Setting("bootstrap-servers", "LIST", "Kafka brokers (librdkafka bootstrap.servers)")
    public static let group = Setting("group", "ID", "consumer group (librdkafka group.id)", default: WorkerDefaults.groupID)
    /// Static membership. A worker restarted within session.timeout.ms keeps its partitions without a
    /// rebalance; a crashed one leaves them unanswered until the timeout. One id per worker, stable
    /// across restarts (a StatefulSet's pod name), never shared by two running workers.
    public static let groupInstanceID = Setting("group-instance-id", "ID",
                                                "static group membership (librdkafka group.instance.id), e.g. the pod name; unset: dynamic")
    public static let kafkaProperties = Setting("kafka-properties", "FILE", "librdkafka properties file (key=value lines)")
    public static let inputTopic = Setting("input-topic", "NAME", "address-change events", default: Topics.defaultAddressChanged)
    public static let replyTopic = Setting("reply-topic", "NAME", "quote replies", default: Topics.defaultQuoteReplies)
    public static let dlqTopic = Setting("dlq-topic", "NAME", "dead letters", default: Topics.defaultDeadLetters)
    public static let stateTopic = Setting("state-topic", "NAME", "compacted sequence state", default: Topics.defaultQuoteState)
    public static let defaultTTL = Setting("default-ttl", "SECONDS", "expiry of events without reply_by, from occurred_at (0: never)", default: String(WorkerDefaults.defaultTimeToLiveSeconds))
    public static let shutdownGrace = Setting("shutdown-grace", "SECONDS", "time to deliver in-flight replies on SIGTERM", default: String(WorkerDefaults.shutdownGraceSeconds))
    public static let sessionIdleTimeout = Setting("session-idle-timeout", "SECONDS", "forget a session (and delete its state) after this long without events", default: String(WorkerDefaults.sessionIdleTimeoutSeconds))
    public static let maxBatch = Setting("max-batch", "N", "most records handled in one turn of the loop", default: String(WorkerDefaults.maxBatch))
    public static let logLevel = Setting("log-level", "LEVEL", "debug, info, warning or error", default: "info")
    public static let metricsListen = Setting("metrics-listen", "HOST:PORT", "serve /metrics, /healthz, /readyz here (off when unset)")
    public static let healthStaleAfter = Setting("health-stale-after", "SECONDS", "/healthz fails when the loop has not turned for this long", default: String(WorkerDefaults.healthStaleAfterSeconds))
    public static let stateLinger = Setting("state-linger", "MS", "how long a state record may wait to share a produce request with others (the state producer's linger.ms)", default: String(WorkerDefaults.stateLingerMs))
    public static let statisticsInterval = Setting("statistics-interval", "MS", "librdkafka statistics for lag and round-trip metrics (0: off)", default: String(WorkerDefaults.statisticsIntervalMs))

    /// Every setting, in the order `--help` and `--print-config` show them.
    public static let all: [Setting] = [
        .config, .rules, .bootstrapServers, .group, .groupInstanceID, .kafkaProperties, .inputTopic, .replyTopic, .dlqTopic, .stateTopic,
        .defaultTTL, .shutdownGrace, .sessionIdleTimeout, .maxBatch, .stateLinger, .logLevel, .metricsListen, .healthStaleAfter, .statisticsInterval,
    ]

    public static func named(_ name: String) -> Setting? { all.first { $0.name == name } }

    /// Environment variables that set librdkafka properties: `SHIPQUOTE_KAFKA_SASL_PASSWORD` → `sasl.password`
    /// (librdkafka property names use dots, never underscores).
    public static let kafkaEnvironmentPrefix = "SHIPQUOTE_KAFKA_"
    /// Config-file keys that set librdkafka properties: `kafka.sasl.password=...`.
    public static let kafkaFilePrefix = "kafka."
}
