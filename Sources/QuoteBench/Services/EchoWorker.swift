import Foundation
import Kafka

/// The baseline ShipQuote is measured against: a consumer-group member that answers every event
/// with a tiny reply (session from the key, sequence by a byte scan, the contract's headers) and
/// commits offsets once the replies of a batch are delivered. Kafka cost without rules, JSON
/// model or sequence state: what any Kafka service on this broker and load must pay.
final class EchoWorker: Sendable {
    private let consumer: KafkaConsumer
    private let producer: KafkaProducer
    private let replyTopic: String
    private let inputTopic: String
    private let maxBatch: Int
    private let thread = LoopThread(name: "bench-echo")
    private let assigned = BenchCounter()
    let answered = BenchCounter()
    let unreadable = BenchCounter()

    /// `onRebalance`: told of every assignment and revocation (the echo process logs them).
    init(kafka: KafkaConfiguration, inputTopic: String, replyTopic: String, maxBatch: Int,
         onRebalance: (@Sendable (KafkaRebalanceEvent) -> Void)? = nil) throws {
        self.inputTopic = inputTopic
        self.replyTopic = replyTopic
        self.maxBatch = maxBatch
        var producerConfig = kafka.producerOnly
        producerConfig.setDefault("linger.ms", "1")  // as the worker's producer
        producer = try KafkaProducer(configuration: producerConfig)
        let assigned = self.assigned
        consumer = try KafkaConsumer(configuration: kafka) { event in
            onRebalance?(event)
            switch event {
            case .assigned(let partitions): assigned.add(partitions.count)
            case .revoked(let partitions): assigned.add(-partitions.count)
            }
        }
    }

    /// Partitions the member owns, changed by its rebalance handler.
    var assignedPartitions: Int { assigned.count }

    func start() throws {
        try consumer.subscribe([inputTopic])
        thread.start { [self] keepGoing in
            var commits = CommitQueue()   // the loop's own: no other thread sees it
            var lastCommit = ContinuousClock.now
            while keepGoing() {
                let batch = consumer.poll(maxMessages: maxBatch, timeoutMs: 100)
                if !batch.isEmpty { commits.append(answer(batch)) }
                if ContinuousClock.now - lastCommit >= .milliseconds(200) {   // the worker's commit interval
                    commit(&commits)
                    lastCommit = .now
                }
            }
            producer.flush(timeoutMs: 5_000)
            commit(&commits)
            consumer.close()
            producer.close(timeoutMs: 1_000)
        }
    }

    func stop() { thread.stop() }

    /// Sends a reply to each event of the batch; the batch's offsets are committable once all are delivered.
    private func answer(_ batch: [KafkaMessage]) -> CommitQueue.Batch {
        let remaining = BenchCounter(batch.count)
        var offsets: [KafkaTopicPartition: Int64] = [:]
        let answered = self.answered
        for message in batch {
            offsets[message.topicPartition] = message.offset + 1
            guard let key = message.key, let sequence = EchoReply.sequenceDigits(in: message.value) else {
                unreadable.add()
                remaining.add(-1)
                continue
            }
            let headers = EchoReply.headers(sessionID: key, sequence: sequence).map { KafkaHeader($0.name, $0.value) }
            let reply = KafkaOutgoingMessage(topic: replyTopic, key: key, value: EchoReply.value(sequence: sequence), headers: headers)
            do {
                try producer.send(reply) { _ in
                    answered.add()
                    remaining.add(-1)
                }
            } catch {
                remaining.add(-1)
            }
        }
        return CommitQueue.Batch(remaining: remaining, offsets: offsets)
    }

    private func commit(_ commits: inout CommitQueue) {
        let offsets = commits.takeDelivered()
        guard !offsets.isEmpty else { return }
        try? consumer.commit(offsets)
    }
}
