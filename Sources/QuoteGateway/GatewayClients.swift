import Foundation
import Kafka
import QuoteContract
import Synchronization

/// The gateway's Kafka side once started: one producer, and one reply reader polling on its own
/// thread. The reader is not in a consumer group: it reads every partition of the reply topic from
/// where it stood when started, so no reply produced after that is missed while a group would
/// still be joining.
///
/// Sendable: its stored properties are immutable references to thread-safe clients (librdkafka's
/// producer; the reader is polled only by the reader thread this object starts) and atomics.
final class GatewayClients: @unchecked Sendable {
    let producer: KafkaProducer
    private let reader: KafkaConsumer
    private let stop = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init(_ configuration: QuoteGateway.Configuration, log: KafkaLogSink?,
         onError: @escaping @Sendable (KafkaError) -> Void) throws(KafkaError) {
        var producerConfig = configuration.kafka.scoped(to: .producer)
        producerConfig.setDefault("linger.ms", "1")  // a customer is waiting: send at once
        producerConfig.setDefault(KeyPartitioning.property, KeyPartitioning.librdkafkaName)  // the contract's partitioner, as Java's
        producer = try KafkaProducer(configuration: producerConfig, log: log, onError: onError)
        var readerConfig = configuration.kafka.scoped(to: .consumer)
        // librdkafka needs a group id even for a manual assignment; this one is never joined or committed.
        readerConfig["group.id"] = "shipquote-gateway-reader-\(UUID().uuidString.lowercased())"
        readerConfig["enable.auto.commit"] = "false"
        readerConfig.setDefault("fetch.wait.max.ms", "5")
        reader = try KafkaConsumer(configuration: readerConfig, log: log, onError: onError) { _ in }
        let topic = configuration.repliesTopic
        var start: [KafkaTopicPartition: Int64] = [:]
        for p in 0..<Int32(try reader.partitionCount(topic)) {
            let tp = KafkaTopicPartition(topic, p)
            start[tp] = try reader.watermarks(tp).high
        }
        try reader.assign(start)
    }

    /// Starts the thread that hands every reply to `book`, until `close`.
    func startReading(into book: ReplyBook) {
        let thread = Thread { [self] in
            var lastPrune = ContinuousClock.now
            while !stop.load(ordering: .acquiring) {
                for message in reader.poll(maxMessages: 500, timeoutMs: 50) {
                    guard let reply = try? QuoteReply.decode(message.value) else { continue }
                    book.received(reply)
                }
                if ContinuousClock.now - lastPrune > .seconds(30) {
                    book.prune(idle: .seconds(3600))
                    lastPrune = .now
                }
            }
            done.signal()
        }
        thread.name = "gateway-reply-reader"
        thread.start()
    }

    /// Stops the reader thread (started before) and closes both clients.
    func close() {
        stop.store(true, ordering: .releasing)
        done.wait()
        reader.close()
        producer.close(timeoutMs: 5_000)
    }
}
