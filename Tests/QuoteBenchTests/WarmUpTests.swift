import Foundation
import Kafka
import KafkaTesting
@testable import QuoteBench
import Synchronization
import Testing

/// The warm-up before a phase's clock starts: a partition whose event got no answer (it reached the
/// worker past its time to live, say) is sent a fresh one with the next sequence, and a warm-up that
/// cannot finish says which partitions wait and why.
@Suite struct WarmUpTests {
    private static let input = "warm.in", replies = "warm.out"

    private func broker() throws -> (EmbeddedKafkaCluster, KafkaConfiguration) {
        let cluster = try EmbeddedKafkaCluster(topics: [KafkaTopicSpec(Self.input, partitions: 2), KafkaTopicSpec(Self.replies, partitions: 2)])
        return (cluster, KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers]))
    }

    /// Reads both input partitions from the start and answers every warm-up event but each
    /// partition's first, as a worker that found the first expired would; records the
    /// (partition, sequence) of everything it read.
    private final class ForgetfulWorker: Sendable {
        let seen = Mutex<[[Int]]>([])
        private let running = Mutex(true)
        private let finished = DispatchSemaphore(value: 0)

        init(kafka: KafkaConfiguration) throws {
            var config = kafka
            config["group.id"] = "forgetful-\(UUID().uuidString)"
            let consumer = try KafkaConsumer(configuration: config) { _ in }
            try consumer.assign([KafkaTopicPartition(WarmUpTests.input, 0): 0, KafkaTopicPartition(WarmUpTests.input, 1): 0])
            let producer = try KafkaProducer(configuration: kafka)
            let thread = Thread { [self] in
                let deadline = Date().addingTimeInterval(60)
                while running.withLock({ $0 }) && Date() < deadline {
                    for message in consumer.poll(maxMessages: 16, timeoutMs: 50) {
                        guard let key = message.key, let digits = EchoReply.sequenceDigits(in: message.value),
                              let sequence = BenchEvents.decimal(digits) else { continue }
                        seen.withLock { $0.append([Int(message.partition), sequence]) }
                        if sequence == 1 { continue }
                        let headers = EchoReply.headers(sessionID: key, sequence: digits).map { KafkaHeader($0.name, $0.value) }
                        try? producer.send(KafkaOutgoingMessage(topic: WarmUpTests.replies, key: key, value: EchoReply.value(sequence: digits),
                                                                headers: headers, partition: message.partition)) { _ in }
                    }
                }
                producer.flush(timeoutMs: 5_000)
                consumer.close()
                producer.close(timeoutMs: 1_000)
                finished.signal()
            }
            thread.start()
        }

        func stop() {
            running.withLock { $0 = false }
            finished.wait()
        }
    }

    @Test func aPartitionWhoseWarmUpGotNoAnswerIsSentAFreshEventWithTheNextSequence() throws {
        let (cluster, kafka) = try broker()
        defer { withExtendedLifetime(cluster) {} }
        let ledger = ReplyLedger(plan: LoadPlan(sessions: 1, events: 1, burstFraction: 0))
        let reader = try ReplyReader(kafka: kafka, topic: Self.replies, ledger: ledger)
        reader.start()
        defer { reader.stop() }
        let worker = try ForgetfulWorker(kafka: kafka)
        let producer = try KafkaProducer(configuration: kafka)
        defer { producer.close(timeoutMs: 5_000) }

        try WarmUp(limit: 60, resendEvery: 0.5).run("test", producer: producer, topic: Self.input, partitions: 2, merchant: nil, ledger: ledger)
        worker.stop()
        #expect(ledger.warmedUp == [0, 1])
        // Each partition: its first event unanswered, then the next sequence, answered.
        let seen = worker.seen.withLock { $0 }
        for partition in [0, 1] {
            #expect(Array(seen.filter { $0[0] == partition }.map { $0[1] }.prefix(2)) == [1, 2])
        }
        #expect(ledger.tally() == ReplyLedger.Tally())
    }

    /// Runs a warm-up that nobody answers on a fresh broker and returns how it failed.
    private func unansweredWarmUp(_ warmUp: WarmUp, label: String, stopped: @escaping () -> String? = { nil },
                                  state: @escaping () -> String = { "" }) throws -> String? {
        let (cluster, kafka) = try broker()
        defer { withExtendedLifetime(cluster) {} }
        let ledger = ReplyLedger(plan: LoadPlan(sessions: 1, events: 1, burstFraction: 0))
        let producer = try KafkaProducer(configuration: kafka)
        defer { producer.close(timeoutMs: 5_000) }
        let error = #expect(throws: BenchError.self) {
            try warmUp.run(label, producer: producer, topic: Self.input, partitions: 2, merchant: nil, ledger: ledger,
                           stopped: stopped, state: state)
        }
        return error?.description
    }

    @Test func aWarmUpNobodyAnswersNamesThePartitionsStillWaitingAndWhatTheWorkersSay() throws {
        let description = try unansweredWarmUp(WarmUp(limit: 1, resendEvery: 30), label: "phase-x",
                                               state: { "worker 0 running, owning [0, 1]" })
        #expect(description == "phase-x: the warm-up events of partition(s) [0, 1] got no reply within 1 s"
            + " (sent 1 time(s), every 30 s); the workers: worker 0 running, owning [0, 1]")
    }

    @Test func aWorkerThatStopsEndsTheWarmUpAtOnceSayingWhy() throws {
        let description = try unansweredWarmUp(WarmUp(limit: 60, resendEvery: 30), label: "phase-y",
                                               stopped: { "shipquote worker 0 exited with status 70" })
        #expect(description == "phase-y: a worker stopped during the warm-up: shipquote worker 0 exited with status 70")
    }
}
