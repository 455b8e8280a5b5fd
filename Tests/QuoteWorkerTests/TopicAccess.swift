import Foundation
import Kafka
import Synchronization
import Testing

/// Producing and reading back whole topics, as the tests' outside clients do.
enum TopicAccess {
    /// Produces records and waits for all their delivery reports, returned in the records' order.
    static func produce(_ records: [KafkaOutgoingMessage], with producer: KafkaProducer) -> [KafkaDeliveryReport] {
        let group = DispatchGroup()
        let reports = Mutex<[Int: KafkaDeliveryReport]>([:])
        for (i, record) in records.enumerated() {
            group.enter()
            try! producer.send(record) { report in
                reports.withLock { $0[i] = report }
                group.leave()
            }
        }
        // Every record gets its report within message.timeout.ms; the bound keeps a lost one from hanging the suite.
        if group.wait(timeout: .now() + 360) == .timedOut { Issue.record("delivery reports still missing after 360 s") }
        return reports.withLock { all in (0..<records.count).map { all[$0] ?? .failed(KafkaError(code: -185, name: "_TIMED_OUT", message: "no delivery report within 360 s")) } }
    }

    /// Reads every partition of a topic from the beginning until `enough` says so or the time is up.
    static func read(_ topic: String, kafka: KafkaConfiguration, timeout: TimeInterval,
                     until enough: ([KafkaMessage]) -> Bool) throws -> [KafkaMessage] {
        var config = kafka
        config["group.id"] = "reader-\(UUID().uuidString)"
        let reader = try KafkaConsumer(configuration: config) { _ in }
        defer { reader.close() }
        var start: [KafkaTopicPartition: Int64] = [:]
        for p in 0..<Int32(try reader.partitionCount(topic)) { start[KafkaTopicPartition(topic, p)] = 0 }
        try reader.assign(start)
        var records: [KafkaMessage] = []
        let deadline = Date().addingTimeInterval(timeout)
        while !enough(records) && Date() < deadline { records += reader.poll(maxMessages: 10_000, timeoutMs: 50) }
        return records
    }
}
