import Foundation
import Kafka
import MetricsHTTP
import QuoteContract

/// Turns flags, `SHIPQUOTE_*` environment variables and a config file into the settings the
/// worker runs with. Precedence, highest first: flags (`-X` for librdkafka), environment
/// (`SHIPQUOTE_KAFKA_*`), config file (`kafka.*` keys, then the `--kafka-properties` file), defaults.
/// Within one level a dedicated setting (`bootstrap-servers`, `group`, `group-instance-id`) beats the pass-through property.
public enum ConfigurationResolver {
    struct Chosen {
        var value: String
        var source: SettingSource
        /// Breaks ties within a level: the properties file < `kafka.*` keys < dedicated settings.
        var tiebreak = 0

        func beats(_ other: Chosen?) -> Bool {
            guard let other else { return true }
            return (source.rank, tiebreak) >= (other.source.rank, other.tiebreak)
        }
    }

    public static func resolve(_ sources: ConfigurationSources) throws(ConfigurationError) -> RunSettings {
        let (settings, kafka) = try choose(sources, among: Setting.all,
                                           dedicated: [(.bootstrapServers, "bootstrap.servers"), (.group, "group.id"),
                                                       (.groupInstanceID, "group.instance.id")])
        return try RunSettings(settings: settings, kafka: kafka)
    }

    /// The same layers for another command's settings (`shipquote gateway`): `list` must hold
    /// `config`; `dedicated` are the settings that stand for a librdkafka property.
    public static func resolve(_ sources: ConfigurationSources, among list: [Setting],
                               dedicated: [(Setting, String)]) throws(ConfigurationError) -> LayeredSettings {
        let (settings, kafka) = try choose(sources, among: list, dedicated: dedicated)
        return LayeredSettings(list: list, settings: settings, kafka: kafka)
    }

    static func choose(_ sources: ConfigurationSources, among list: [Setting],
                       dedicated: [(Setting, String)]) throws(ConfigurationError) -> (settings: [String: Chosen], kafka: [String: Chosen]) {
        func named(_ name: String) -> Setting? { list.first { $0.name == name } }
        var settings: [String: Chosen] = [:]
        var kafka: [String: Chosen] = [:]
        func offer(_ name: String, _ chosen: Chosen) { if chosen.beats(settings[name]) { settings[name] = chosen } }
        func offerKafka(_ key: String, _ chosen: Chosen) { if chosen.beats(kafka[key]) { kafka[key] = chosen } }

        for setting in list {
            if let value = setting.defaultValue { offer(setting.name, Chosen(value: value, source: .defaultValue)) }
        }
        // Environment: settings first, then librdkafka pass-through; anything else is a typo worth stopping for.
        let byEnvironmentName = Dictionary(uniqueKeysWithValues: list.map { ($0.environmentName, $0) })
        for (name, value) in sources.environment where name.hasPrefix("SHIPQUOTE_") {
            if let setting = byEnvironmentName[name] {
                offer(setting.name, Chosen(value: value, source: .environment(name)))
            } else if name.hasPrefix(Setting.kafkaEnvironmentPrefix), name.count > Setting.kafkaEnvironmentPrefix.count {
                let key = name.dropFirst(Setting.kafkaEnvironmentPrefix.count).lowercased().replacingOccurrences(of: "_", with: ".")
                offerKafka(key, Chosen(value: value, source: .environment(name), tiebreak: 1))
            } else {
                throw .unknownSetting(name, source: .environment(name))
            }
        }
        for (name, value) in sources.flags {
            guard named(name) != nil else { throw .unknownSetting("--\(name)", source: .flag("--\(name)")) }
            offer(name, Chosen(value: value, source: .flag("--\(name)")))
        }
        for assignment in sources.kafkaAssignments {
            guard let (key, value) = try? KafkaConfiguration.parseAssignment(assignment) else {
                throw .invalidValue(setting: "-X", value: assignment, source: .flag("-X"), expected: "key=value (a librdkafka property)")
            }
            offerKafka(key, Chosen(value: value, source: .flag("-X"), tiebreak: 1))
        }
        // The config file's own path comes from a flag or the environment, never from a file.
        if let path = settings[Setting.config.name]?.value, !path.isEmpty {
            let file = try ConfigurationFile(path: path, setting: Setting.config.name)
            for entry in file.entries {
                let source = SettingSource.file(path: path, line: entry.line)
                if entry.key.hasPrefix(Setting.kafkaFilePrefix), entry.key.count > Setting.kafkaFilePrefix.count {
                    offerKafka(String(entry.key.dropFirst(Setting.kafkaFilePrefix.count)), Chosen(value: entry.value, source: source, tiebreak: 1))
                } else if let setting = named(entry.key), setting != .config {
                    offer(setting.name, Chosen(value: entry.value, source: source))
                } else {
                    throw .unknownSetting(entry.key, source: source)
                }
            }
        }
        if let chosen = settings[Setting.kafkaProperties.name], !chosen.value.isEmpty {
            let file = try ConfigurationFile(path: chosen.value, setting: Setting.kafkaProperties.name)
            for entry in file.entries {
                offerKafka(entry.key, Chosen(value: entry.value, source: .file(path: chosen.value, line: entry.line)))
            }
        }
        for (setting, property) in dedicated {
            if var chosen = settings[setting.name], !chosen.value.isEmpty {
                chosen.tiebreak = 2
                offerKafka(property, chosen)
            }
        }
        return (settings, kafka)
    }
}
