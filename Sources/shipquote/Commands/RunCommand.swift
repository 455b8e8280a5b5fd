import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import ShippingRules

/// `shipquote run`: the production worker.
enum RunCommand {
    static let help = """
    usage: shipquote run --bootstrap-servers HOST:PORT --rules FILE|DIR [flags]

      --bootstrap-servers LIST   Kafka brokers (or bootstrap.servers in the properties file)
      --rules PATH               a rules file, or a directory with one file per merchant
      -X key=value               a librdkafka property (repeatable; security.protocol, sasl.*, ssl.*, tuning)
      --kafka-properties FILE    librdkafka properties file (key=value lines); -X and flags win over it
      --group ID                 consumer group (default shipquote)
      --input-topic NAME         default \(Topics.defaultAddressChanged)
      --reply-topic NAME         default \(Topics.defaultQuoteReplies)
      --dlq-topic NAME           default \(Topics.defaultDeadLetters)
      --state-topic NAME         default \(Topics.defaultQuoteState)
      --default-ttl SECONDS      expiry of events without reply_by, from occurred_at (default 30; 0: never)
      --shutdown-grace SECONDS   time to deliver in-flight replies on SIGTERM (default 10)
      --log-level LEVEL          debug, info, warning or error (default info)
      --create-topics            create missing topics first (--partitions N, --replication-factor N)
      --print-config             print the effective configuration, secrets redacted, and exit
    """

    static let valued: Set<String> = ["--bootstrap-servers", "--rules", "-X", "--kafka-properties", "--group",
                                      "--input-topic", "--reply-topic", "--dlq-topic", "--state-topic",
                                      "--default-ttl", "--shutdown-grace", "--log-level", "--partitions",
                                      "--replication-factor"]

    static func run(_ args: [String]) throws {
        let a = try Arguments(args, valued: valued, flags: ["--create-topics", "--print-config", "--help"])
        if a.has("--help") { return Output.line(help) }

        let kafka = try kafkaConfiguration(a)
        guard kafka["bootstrap.servers"] != nil else { Output.fail("run: --bootstrap-servers is required\n\n\(help)") }
        guard let rulesPath = a.value("--rules") else { Output.fail("run: --rules is required\n\n\(help)") }
        guard let level = Logger.Level(name: a.value("--log-level") ?? "info") else {
            Output.fail("run: --log-level must be debug, info, warning or error")
        }
        let topics = Topics(addressChanged: a.value("--input-topic") ?? Topics.defaultAddressChanged,
                            quoteReplies: a.value("--reply-topic") ?? Topics.defaultQuoteReplies,
                            deadLetters: a.value("--dlq-topic") ?? Topics.defaultDeadLetters,
                            quoteState: a.value("--state-topic") ?? Topics.defaultQuoteState)
        let ttl = try a.int("--default-ttl") ?? 30
        let grace = try a.int("--shutdown-grace") ?? 10
        guard ttl >= 0 else { Output.fail("run: --default-ttl must be 0 or more seconds") }
        guard grace >= 0 else { Output.fail("run: --shutdown-grace must be 0 or more seconds") }
        let configuration = WorkerConfiguration(topics: topics, kafka: kafka,
                                                defaultTimeToLive: ttl == 0 ? nil : TimeInterval(ttl),
                                                shutdownGrace: .seconds(grace))
        if a.has("--print-config") {
            Output.line("rules=\(rulesPath)")
            Output.line("topics.input=\(topics.addressChanged)\ntopics.replies=\(topics.quoteReplies)")
            Output.line("topics.dlq=\(topics.deadLetters)\ntopics.state=\(topics.quoteState)")
            Output.line("default-ttl=\(ttl)\nshutdown-grace=\(grace)\nlog-level=\(a.value("--log-level") ?? "info")")
            for (key, value) in configuration.consumerKafka.redacted { Output.line("kafka.\(key)=\(value)") }
            return
        }

        let rules: RuleLibrary
        do { rules = try RuleLibrary.load(path: rulesPath) } catch { Output.fail("run: \(error)") }
        if a.has("--create-topics") {
            let partitions = try a.int("--partitions") ?? 8
            let replication = try a.int("--replication-factor") ?? 3
            try TopicAdmin.createTopics([
                TopicSpec(topics.addressChanged, partitions: partitions, replicationFactor: replication),
                TopicSpec(topics.quoteReplies, partitions: partitions, replicationFactor: replication),
                TopicSpec(topics.deadLetters, partitions: 1, replicationFactor: replication),
                TopicSpec(topics.quoteState, partitions: partitions, replicationFactor: replication,
                          config: ["cleanup.policy": "compact"]),
            ], configuration: kafka)
        }
        let logger = Logger(minimum: level)
        let worker = try Worker(configuration: configuration, engine: rules, logger: logger)
        let signals = StopSignals { sig in
            logger.info("stop requested", ["signal": .int(sig)])
            worker.stop()
        }
        try withExtendedLifetime(signals) { try worker.run() }
    }

    /// Properties file first, then `-X`, then the dedicated flags.
    static func kafkaConfiguration(_ a: Arguments) throws -> KafkaConfiguration {
        var kafka = KafkaConfiguration()
        if let file = a.value("--kafka-properties") { kafka = try KafkaConfiguration.load(propertiesFile: file) }
        try kafka.apply(assignments: a.all("-X"))
        if let servers = a.value("--bootstrap-servers") { kafka["bootstrap.servers"] = servers }
        if let group = a.value("--group") { kafka["group.id"] = group }
        return kafka
    }
}
