import Kafka

/// N echo workers in one consumer group over the phase's input topic.
final class EchoWorkers: BenchService {
    private let workers: [EchoWorker]

    init(count: Int, kafka: KafkaConfiguration, inputTopic: String, replyTopic: String, maxBatch: Int) throws {
        var config = kafka
        config["group.id"] = Self.group(inputTopic)
        workers = try (0..<count).map { _ in try EchoWorker(kafka: config, inputTopic: inputTopic, replyTopic: replyTopic, maxBatch: maxBatch) }
        for w in workers { try w.start() }
    }

    /// The phase's consumer group.
    static func group(_ inputTopic: String) -> String { "bench-echo-\(inputTopic)" }

    var assignedPartitions: Int { workers.reduce(0) { $0 + $1.assignedPartitions } }
    var failure: String? { nil }

    func counts() -> ServiceCounts {
        let answered = workers.reduce(0) { $0 + $1.answered.count }
        let unreadable = workers.reduce(0) { $0 + $1.unreadable.count }
        return ServiceCounts(eventsIn: answered + unreadable, outcomes: ["echo": answered], drops: [:], deadLetters: unreadable,
                             finished: answered + unreadable)
    }

    func stop() { for w in workers { w.stop() } }
}
