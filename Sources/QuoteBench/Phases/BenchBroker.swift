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

    /// `embeddedClients`: the client settings for the embedded broker at a bootstrap address.
    init(settings: BenchSettings, embeddedClients: (String) -> KafkaConfiguration) throws {
        if let servers = settings.bootstrapServers {
            cluster = nil
            bootstrap = servers
        } else {
            let started = try EmbeddedKafkaCluster(brokers: 1)
            cluster = started
            bootstrap = started.bootstrapServers
        }
        partitions = settings.partitions
        kafka = try settings.kafka(startingFrom: cluster != nil ? embeddedClients(bootstrap)
                                                                : KafkaConfiguration(["bootstrap.servers": bootstrap]))
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
