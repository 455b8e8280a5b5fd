import Foundation
import Kafka
import KafkaTesting
import QuoteContract
import QuoteWorker

/// `shipquote broker`: librdkafka's mock cluster as a process, for kcat or any Kafka client.
enum BrokerCommand {
    static let help = """
    usage: shipquote broker [--brokers N] [--partitions N] [--topic NAME:PARTITIONS ...] [--exit-with-parent]

    Starts an embedded Kafka cluster on 127.0.0.1 and prints its bootstrap address on the first line.
    Without --topic it creates the contract's four topics with --partitions each (default 4).
    Runs until SIGTERM or SIGINT, or with --exit-with-parent until the process that started it exits.
    """

    static func run(_ args: [String]) throws {
        ProcessSignals.hold()
        if Output.wantsHelp(args) { Output.help(help) }
        let a = try Arguments(args, valued: ["--brokers", "--partitions", "--topic"], flags: ["--exit-with-parent", "--help"])
        let brokers = try a.int("--brokers") ?? 1
        guard brokers >= 1 else { Output.fail("broker: --brokers must be at least 1") }
        var specs: [KafkaTopicSpec] = []
        for topic in a.all("--topic") {
            let parts = topic.split(separator: ":")
            guard parts.count == 2, let n = Int(parts[1]), n >= 1 else {
                Output.fail("broker: --topic expects NAME:PARTITIONS, got \(topic)")
            }
            specs.append(KafkaTopicSpec(String(parts[0]), partitions: n, replicationFactor: min(3, brokers)))
        }
        if specs.isEmpty { specs = TopicLayout.specs(.defaults, partitions: try a.int("--partitions") ?? 4) }
        let cluster = try EmbeddedKafkaCluster(brokers: brokers, topics: specs)
        Output.line(cluster.bootstrapServers)
        FileHandle.standardError.write(Data("embedded broker up: \(brokers) broker(s), topics \(specs.map { "\($0.name):\($0.partitions)" }.joined(separator: " "))\n".utf8))
        let stop = DispatchSemaphore(value: 0)
        ProcessSignals.handle(stop: { _ in stop.signal() })
        if a.has("--exit-with-parent") {
            ProcessSignals.stopWithParent(within: 5) {
                FileHandle.standardError.write(Data("embedded broker: the parent exited and the broker did not stop within 5 s; exiting\n".utf8))
            }
        }
        withExtendedLifetime(cluster) { stop.wait() }
    }
}
