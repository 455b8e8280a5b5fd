import Foundation
import Kafka
import MetricsHTTP
import QuoteContract

/// The effective configuration of `shipquote run`, each value checked and its source kept.
public struct RunSettings: Sendable {
    public let rulesPath: String
    public let topics: Topics
    /// librdkafka properties for both clients (the worker derives the consumer's and producer's).
    public let kafka: KafkaConfiguration
    public let defaultTimeToLive: TimeInterval?
    public let shutdownGrace: Duration
    public let sessionIdleTimeout: TimeInterval
    public let maxBatch: Int
    public let stateLinger: Duration
    public let logLevel: Logger.Level
    /// Where `/metrics`, `/healthz` and `/readyz` are served; nil: no listener.
    public let metricsListen: HTTPListenAddress?
    public let healthStaleAfter: Duration
    /// Each setting's value and source (settings by name, librdkafka properties as `kafka.<key>`).
    public let effective: [(key: String, value: String, source: SettingSource)]

    init(settings: [String: ConfigurationResolver.Chosen], kafka: [String: ConfigurationResolver.Chosen]) throws(ConfigurationError) {
        func value(_ s: Setting) -> ConfigurationResolver.Chosen? { settings[s.name].flatMap { $0.value.isEmpty ? nil : $0 } }
        func invalid(_ s: Setting, _ expected: String) -> ConfigurationError {
            let chosen = settings[s.name]!
            return .invalidValue(setting: s.name, value: chosen.value, source: chosen.source, expected: expected)
        }
        func seconds(_ s: Setting, allowZero: Bool) throws(ConfigurationError) -> Int {
            guard let n = Int(value(s)?.value ?? ""), allowZero ? n >= 0 : n > 0 else {
                throw invalid(s, allowZero ? "a whole number of seconds, 0 or more" : "a whole number of seconds, 1 or more")
            }
            return n
        }
        func topic(_ s: Setting) throws(ConfigurationError) -> String {
            let name = value(s)?.value ?? ""
            let legal = name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "._-".unicodeScalars.contains($0) }
            guard !name.isEmpty, name.count <= 249, legal, name != ".", name != ".." else {
                throw invalid(s, "a Kafka topic name: 1 to 249 of a-z A-Z 0-9 . _ -")
            }
            return name
        }

        guard let rules = value(.rules) else {
            throw .missing(setting: Setting.rules.name, hint: "give --rules PATH, SHIPQUOTE_RULES, or rules= in the config file")
        }
        rulesPath = rules.value
        topics = Topics(addressChanged: try topic(.inputTopic), quoteReplies: try topic(.replyTopic),
                        deadLetters: try topic(.dlqTopic), quoteState: try topic(.stateTopic))
        let ttl = try seconds(.defaultTTL, allowZero: true)
        defaultTimeToLive = ttl == 0 ? nil : TimeInterval(ttl)
        shutdownGrace = .seconds(try seconds(.shutdownGrace, allowZero: true))
        sessionIdleTimeout = TimeInterval(try seconds(.sessionIdleTimeout, allowZero: false))
        healthStaleAfter = .seconds(try seconds(.healthStaleAfter, allowZero: false))
        guard let batch = Int(value(.maxBatch)?.value ?? ""), (1...100_000).contains(batch) else {
            throw invalid(.maxBatch, "a whole number from 1 to 100000")
        }
        maxBatch = batch
        guard let linger = Int(value(.stateLinger)?.value ?? ""), (0...WorkerDefaults.maxStateLingerMs).contains(linger) else {
            throw invalid(.stateLinger, "a whole number of milliseconds from 0 to \(WorkerDefaults.maxStateLingerMs)")
        }
        stateLinger = .milliseconds(linger)
        guard let level = Logger.Level(name: value(.logLevel)?.value ?? "") else { throw invalid(.logLevel, "debug, info, warning or error") }
        logLevel = level
        if let listen = value(.metricsListen) {
            do { metricsListen = try HTTPListenAddress(parsing: listen.value) } catch {
                throw invalid(.metricsListen, "HOST:PORT, e.g. 0.0.0.0:9464 (\(error))")
            }
        } else {
            metricsListen = nil
        }
        guard let interval = Int(value(.statisticsInterval)?.value ?? ""), interval >= 0 else {
            throw invalid(.statisticsInterval, "a whole number of milliseconds, 0 or more")
        }

        var kafka = kafka
        // Statistics feed the lag and round-trip metrics; without a listener nobody would read them.
        if metricsListen != nil, interval > 0, let chosen = settings[Setting.statisticsInterval.name] {
            if ConfigurationResolver.Chosen(value: String(interval), source: chosen.source, tiebreak: 2).beats(kafka["statistics.interval.ms"]) {
                kafka["statistics.interval.ms"] = ConfigurationResolver.Chosen(value: String(interval), source: chosen.source, tiebreak: 2)
            }
        }
        guard kafka["bootstrap.servers"].map({ !$0.value.isEmpty }) ?? false else {
            throw .missing(setting: Setting.bootstrapServers.name,
                           hint: "give --bootstrap-servers, SHIPQUOTE_BOOTSTRAP_SERVERS, bootstrap-servers= in the config file, or the librdkafka property bootstrap.servers")
        }
        self.kafka = KafkaConfiguration(kafka.mapValues(\.value))

        self.effective = LayeredSettings.effective(list: Setting.all, settings: settings, kafka: kafka)
    }

    /// What `shipquote run --print-config` prints: `key=value  # source`, secrets redacted.
    public var printed: String { LayeredSettings.printed(effective) }

    public var workerConfiguration: WorkerConfiguration {
        WorkerConfiguration(topics: topics, kafka: kafka, maxBatch: maxBatch, defaultTimeToLive: defaultTimeToLive,
                            shutdownGrace: shutdownGrace, sessionIdleTimeout: sessionIdleTimeout, stateLinger: stateLinger)
    }
}
