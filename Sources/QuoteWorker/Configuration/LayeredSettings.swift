import Kafka

/// Settings resolved through the layers (flags > environment > config file > defaults) for a
/// command other than `run`: each value with its source, the librdkafka properties, and the
/// helpers to check a value while naming where it came from.
public struct LayeredSettings: Sendable {
    let list: [Setting]
    let settings: [String: ConfigurationResolver.Chosen]
    let kafkaChosen: [String: ConfigurationResolver.Chosen]

    init(list: [Setting], settings: [String: ConfigurationResolver.Chosen], kafka: [String: ConfigurationResolver.Chosen]) {
        self.list = list
        self.settings = settings
        self.kafkaChosen = kafka
    }

    /// The value in force; nil when unset or empty.
    public func value(_ setting: Setting) -> String? { settings[setting.name].flatMap { $0.value.isEmpty ? nil : $0.value } }

    /// The error that names the setting, its value and its source.
    public func invalid(_ setting: Setting, expected: String) -> ConfigurationError {
        let chosen = settings[setting.name]
        return .invalidValue(setting: setting.name, value: chosen?.value ?? "", source: chosen?.source ?? .defaultValue, expected: expected)
    }

    /// A whole number within `range`.
    public func integer(_ setting: Setting, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let n = value(setting).flatMap({ Int($0) }), range.contains(n) else {
            throw invalid(setting, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    /// The librdkafka properties; `bootstrap.servers` must be among them.
    public func kafka(missingHint: String) throws(ConfigurationError) -> KafkaConfiguration {
        guard kafkaChosen["bootstrap.servers"].map({ !$0.value.isEmpty }) ?? false else {
            throw .missing(setting: Setting.bootstrapServers.name, hint: missingHint)
        }
        return KafkaConfiguration(kafkaChosen.mapValues(\.value))
    }

    /// What `--print-config` prints: `key=value  # source`, secrets redacted.
    public var printed: String { Self.printed(Self.effective(list: list, settings: settings, kafka: kafkaChosen)) }

    static func effective(list: [Setting], settings: [String: ConfigurationResolver.Chosen],
                          kafka: [String: ConfigurationResolver.Chosen]) -> [(key: String, value: String, source: SettingSource)] {
        var effective: [(key: String, value: String, source: SettingSource)] = []
        for setting in list {
            guard let chosen = settings[setting.name] else { continue }
            effective.append((setting.name, setting.isSecret ? "[redacted]" : chosen.value, chosen.source))
        }
        for key in kafka.keys.sorted() {
            let chosen = kafka[key]!
            effective.append(("kafka.\(key)", KafkaConfiguration.isSecret(key) ? "[redacted]" : chosen.value, chosen.source))
        }
        return effective
    }

    static func printed(_ effective: [(key: String, value: String, source: SettingSource)]) -> String {
        effective.map { "\($0.key)=\($0.value)  # \($0.source)" }.joined(separator: "\n")
    }
}
