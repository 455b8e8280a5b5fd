/// The raw inputs of a configuration, before precedence is applied.
public struct ConfigurationSources: Sendable {
    /// Setting values given as flags, by setting name (`rules`, `metrics-listen`); a repeated
    /// flag's last value.
    public var flags: [String: String]
    /// `-X key=value` librdkafka assignments, in the order given (a later one wins).
    public var kafkaAssignments: [String]
    /// The process environment; only `SHIPQUOTE_*` variables are read.
    public var environment: [String: String]

    public init(flags: [String: String] = [:], kafkaAssignments: [String] = [], environment: [String: String] = [:]) {
        self.flags = flags
        self.kafkaAssignments = kafkaAssignments
        self.environment = environment
    }
}
