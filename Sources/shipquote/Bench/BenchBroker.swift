import Foundation
import Kafka
import KafkaTesting
import QuoteContract
import QuoteWorker

/// The broker a run talks to: the embedded mock cluster started here, or the one named by
/// `--bootstrap-servers`. Each phase gets topics of its own, so phases never read each other's
/// records and each starts with empty partitions (the mock keeps only ~5 MiB per partition).
final class BenchBroker {
    private let cluster: EmbeddedKafkaCluster?
    let bootstrap: String
    let kafka: KafkaConfiguration
    let partitions: Int
    /// Keeps topic names of runs against a real broker apart.
    private let runID = String(UUID().uuidString.prefix(8)).lowercased()

    init(settings: BenchSettings) throws {
        if let servers = settings.bootstrapServers {
            cluster = nil
            bootstrap = servers
        } else {
            let started = try EmbeddedKafkaCluster(brokers: 1)
            cluster = started
            bootstrap = started.bootstrapServers
        }
        partitions = settings.partitions
        kafka = try settings.kafka(bootstrap: bootstrap, embedded: cluster != nil)
    }

    var isEmbedded: Bool { cluster != nil }

    /// The contract's four topics for one phase, with the phase's name in them.
    func topics(for phase: String) throws -> Topics {
        let prefix = "bench.\(runID).\(phase)"
        let topics = Topics(addressChanged: "\(prefix).in", quoteReplies: "\(prefix).out",
                            deadLetters: "\(prefix).dlq", quoteState: "\(prefix).state")
        try create(TopicLayout.specs(topics, partitions: partitions))
        return topics
    }

    /// One topic with the run's partition count (the produce-only probe's sink).
    func sinkTopic(for phase: String) throws -> String {
        let name = "bench.\(runID).\(phase)"
        try create([KafkaTopicSpec(name, partitions: partitions)])
        return name
    }

    private func create(_ specs: [KafkaTopicSpec]) throws {
        if let cluster {
            for spec in specs { try cluster.createTopic(spec) }
        } else {
            try KafkaTopicAdmin.createTopics(specs, configuration: kafka.producerOnly)
        }
    }
}

extension KafkaConfiguration {
    /// Without the consumer-only keys, which a producer would warn about.
    var producerOnly: KafkaConfiguration {
        var c = self
        for key in ["group.id", "session.timeout.ms", "heartbeat.interval.ms", "fetch.wait.max.ms", "fetch.min.bytes",
                    "fetch.max.bytes", "max.partition.fetch.bytes", "queued.min.messages", "queued.max.messages.kbytes",
                    "auto.offset.reset", "max.poll.interval.ms", "partition.assignment.strategy", "enable.partition.eof"] {
            c[key] = nil
        }
        return c
    }
}
