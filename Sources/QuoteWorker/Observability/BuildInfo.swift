import Kafka
import Synchronization

/// What this binary is: the version and source revision the executable sets at start
/// (`BuildInfo.current = BuildInfo(version: …, revision: …)`), and the librdkafka it runs with.
/// `shipquote_build_info` and the logs' `service.version` read it; a value nobody set is nil
/// (the metric shows `unknown`, a log line leaves the field out).
public struct BuildInfo: Sendable, Equatable {
    public var version: String?
    public var revision: String?

    public init(version: String? = nil, revision: String? = nil) {
        self.version = version.flatMap { $0.isEmpty ? nil : $0 }
        self.revision = revision.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static let stored = Mutex(BuildInfo())

    /// Set once by the executable before it makes loggers or metrics.
    public static var current: BuildInfo {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }

    /// librdkafka's version, from the library loaded (`rd_kafka_version_str()`).
    public static var librdkafka: String { KafkaLibrary.version }
}
