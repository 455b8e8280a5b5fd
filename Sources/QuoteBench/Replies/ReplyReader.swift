import Foundation
import Kafka
import QuoteContract

/// Reads the reply topic on its own thread, as a gateway would, and stamps every reply the moment
/// it comes out of the consumer. It reads only the `session-id` and `sequence` headers: no JSON.
final class ReplyReader: Sendable {
    private let consumer: KafkaConsumer
    private let ledger: ReplyLedger
    private let thread = LoopThread(name: "bench-reader")
    private let onReply: (@Sendable (ReplyArrival) -> Void)?

    /// `onReply`: told of every reply the ledger placed, with its partition (the takeover bench's timeline).
    init(kafka: KafkaConfiguration, topic: String, ledger: ReplyLedger, onReply: (@Sendable (ReplyArrival) -> Void)? = nil) throws {
        var config = kafka
        config["group.id"] = "bench-reader-\(UUID().uuidString)"  // never joins: partitions are assigned by hand
        consumer = try KafkaConsumer(configuration: config) { _ in }
        self.ledger = ledger
        self.onReply = onReply
        var start: [KafkaTopicPartition: Int64] = [:]
        for p in 0..<Int32(try consumer.partitionCount(topic)) {
            // From the high watermark: the topic is fresh on the embedded broker, and on a real one
            // whatever an earlier run left there is not ours to count.
            start[KafkaTopicPartition(topic, p)] = try consumer.watermarks(KafkaTopicPartition(topic, p)).high
        }
        try consumer.assign(start)
    }

    func start() {
        thread.start { [consumer, ledger, onReply] keepGoing in
            while keepGoing() {
                for message in consumer.poll(maxMessages: 256, timeoutMs: 20) {
                    let now = uptimeNanoseconds()
                    let sentAt = ledger.received(sessionHeader: message.header(ContractHeader.sessionID),
                                                 sequenceHeader: message.header(ContractHeader.sequence), at: now)
                    if let onReply, let sentAt { onReply(ReplyArrival(partition: message.partition, receivedAt: now, eventSentAt: sentAt)) }
                }
            }
            consumer.close()
        }
    }

    func stop() { thread.stop() }
}
