/// A line librdkafka wants logged. The Kafka face hands it over instead of printing, so the
/// process keeps one log format.
public struct KafkaLogRecord: Sendable {
    /// syslog levels: 0 emergency … 7 debug.
    public let level: Int32
    public let facility: String
    public let message: String
    public let client: String

    /// What librdkafka's log callback builds; here for tests of log sinks.
    package init(level: Int32, facility: String, message: String, client: String) {
        self.level = level
        self.facility = facility
        self.message = message
        self.client = client
    }
}

public typealias KafkaLogSink = @Sendable (KafkaLogRecord) -> Void
