import Foundation
import Kafka
import Synchronization

/// The baseline ShipQuote is measured against: a consumer-group member that answers every event
/// with a tiny reply (session from the key, sequence by a byte scan, the contract's headers) and
/// commits offsets once the replies of a batch are delivered. Kafka cost without rules, JSON
/// model or sequence state: what any Kafka service on this broker and load must pay.
final class EchoWorker: @unchecked Sendable {
    private let consumer: KafkaConsumer
    private let producer: KafkaProducer
    private let replyTopic: String
    private let inputTopic: String
    private let maxBatch: Int
    private let running = LockedFlag(true)
    private let done = DispatchSemaphore(value: 0)
    private let assigned = AssignedCount()
    let answered = BenchCounter()
    let unreadable = BenchCounter()
    /// Batches whose replies are on their way; the head ones whose replies are all delivered are committed.
    private var inFlight: [(remaining: BatchCountdown, offsets: [KafkaTopicPartition: Int64])] = []
    private var committable: [KafkaTopicPartition: Int64] = [:]

    init(kafka: KafkaConfiguration, inputTopic: String, replyTopic: String, maxBatch: Int) throws {
        self.inputTopic = inputTopic
        self.replyTopic = replyTopic
        self.maxBatch = maxBatch
        var producerConfig = kafka.producerOnly
        producerConfig.setDefault("linger.ms", "1")  // as the worker's producer
        producer = try KafkaProducer(configuration: producerConfig)
        let assigned = self.assigned
        consumer = try KafkaConsumer(configuration: kafka) { event in
            switch event {
            case .assigned(let partitions): assigned.change(partitions.count)
            case .revoked(let partitions): assigned.change(-partitions.count)
            }
        }
    }

    var assignedPartitions: Int { assigned.count }

    func start() throws {
        try consumer.subscribe([inputTopic])
        let thread = Thread { [self] in
            var lastCommit = ContinuousClock.now
            while running.value {
                let batch = consumer.poll(maxMessages: maxBatch, timeoutMs: 100)
                if !batch.isEmpty { answer(batch) }
                if ContinuousClock.now - lastCommit >= .milliseconds(200) {   // the worker's commit interval
                    commitDelivered()
                    lastCommit = .now
                }
            }
            producer.flush(timeoutMs: 5_000)
            commitDelivered()
            consumer.close()
            producer.close(timeoutMs: 1_000)
            done.signal()
        }
        thread.name = "bench-echo"
        thread.start()
    }

    func stop() {
        running.set(false)
        done.wait()
    }

    private func answer(_ batch: [KafkaMessage]) {
        let remaining = BatchCountdown(batch.count)
        var offsets: [KafkaTopicPartition: Int64] = [:]
        let answered = self.answered
        for message in batch {
            offsets[message.topicPartition] = message.offset + 1
            guard let key = message.key, let sequence = EchoReply.sequenceDigits(in: message.value) else {
                unreadable.add()
                remaining.finishOne()
                continue
            }
            let headers = EchoReply.headers(sessionID: key, sequence: sequence).map { KafkaHeader($0.name, $0.value) }
            let reply = KafkaOutgoingMessage(topic: replyTopic, key: key, value: EchoReply.value(sequence: sequence), headers: headers)
            do {
                try producer.send(reply) { _ in
                    answered.add()
                    remaining.finishOne()
                }
            } catch {
                remaining.finishOne()
            }
        }
        inFlight.append((remaining, offsets))
    }

    private func commitDelivered() {
        while let head = inFlight.first, head.remaining.isDone {
            committable.merge(head.offsets) { max($0, $1) }
            inFlight.removeFirst()
        }
        guard !committable.isEmpty else { return }
        try? consumer.commit(committable)
        committable.removeAll()
    }
}

/// The replies of one batch still awaiting their delivery report.
final class BatchCountdown: Sendable {
    private let remaining: Atomic<Int>
    init(_ count: Int) { remaining = Atomic(count) }
    func finishOne() { remaining.subtract(1, ordering: .releasing) }
    var isDone: Bool { remaining.load(ordering: .acquiring) <= 0 }
}

/// Partitions the member owns, changed by its rebalance handler.
final class AssignedCount: Sendable {
    private let value = Atomic<Int>(0)
    func change(_ n: Int) { value.add(n, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
