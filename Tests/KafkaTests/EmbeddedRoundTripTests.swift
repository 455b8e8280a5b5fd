import Foundation
import Kafka
import KafkaTesting
import Synchronization
import Testing

/// The Kafka face against librdkafka's mock cluster over real TCP sockets.
@Suite struct EmbeddedRoundTripTests {
    static func consumerConfiguration(_ cluster: EmbeddedKafkaCluster, group: String) -> KafkaConfiguration {
        KafkaConfiguration([
            "bootstrap.servers": cluster.bootstrapServers,
            "group.id": group,
            // These tests commit by hand, and read what was produced before they joined.
            "enable.auto.commit": "false",
            "auto.offset.reset": "earliest",
            "fetch.wait.max.ms": "5",
            "session.timeout.ms": "6000",
            "heartbeat.interval.ms": "500",
        ])
    }

    /// Produces and waits for every delivery report.
    static func produce(_ messages: [KafkaOutgoingMessage], to cluster: EmbeddedKafkaCluster) throws -> [KafkaDeliveryReport] {
        let producer = try KafkaProducer(configuration: KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers, "linger.ms": "1"]))
        let reports = Mutex<[KafkaDeliveryReport]>([])
        for message in messages {
            try producer.send(message) { report in reports.withLock { $0.append(report) } }
        }
        #expect(producer.flush(timeoutMs: 10_000))
        producer.close(timeoutMs: 1_000)
        return reports.withLock { $0 }
    }

    @Test func recordsKeepKeyValueAndHeadersAndLandByKeyInOnePartition() throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, topics: [KafkaTopicSpec("t", partitions: 4)])
        let messages = (0..<40).map { i in
            KafkaOutgoingMessage(topic: "t", key: Array("session-\(i % 5)".utf8), value: Array("v\(i)".utf8),
                            headers: [KafkaHeader("sequence", "\(i)"), KafkaHeader("empty", nil)])
        }
        let reports = try Self.produce(messages, to: cluster)
        #expect(reports.count == 40)
        #expect(reports.allSatisfy { if case .delivered = $0 { true } else { false } })

        var events: [KafkaRebalanceEvent] = []
        let consumer = try KafkaConsumer(configuration: Self.consumerConfiguration(cluster, group: "g1")) { events.append($0) }
        try consumer.subscribe(["t"])
        var received: [KafkaMessage] = []
        let deadline = Date().addingTimeInterval(30)
        while received.count < 40 && Date() < deadline {
            received += consumer.poll(maxMessages: 100, timeoutMs: 100)
        }
        #expect(received.count == 40)
        #expect(events.first == .assigned((0..<4).map { KafkaTopicPartition("t", $0) }))
        let first = try #require(received.first { $0.value == Array("v7".utf8) })
        #expect(first.key == Array("session-2".utf8))
        #expect(first.header("sequence") == Array("7".utf8))
        #expect(first.headers.contains(KafkaHeader("empty", nil)))
        // All records of one key sit in one partition, in the order they were produced.
        let bySession = Dictionary(grouping: received) { String(decoding: $0.key!, as: UTF8.self) }
        for (_, records) in bySession {
            #expect(Set(records.map(\.partition)).count == 1)
            let order = records.map { Int(String(decoding: $0.value.dropFirst(), as: UTF8.self))! }
            #expect(order == order.sorted())
        }
        consumer.close()
        #expect(events.last == .revoked((0..<4).map { KafkaTopicPartition("t", $0) }))
    }

    @Test func committedOffsetsAreWhereANewMemberOfTheGroupStarts() throws {
        let cluster = try EmbeddedKafkaCluster(brokers: 1, topics: [KafkaTopicSpec("t", partitions: 1)])
        _ = try Self.produce((0..<10).map { KafkaOutgoingMessage(topic: "t", key: nil, value: [UInt8($0)]) }, to: cluster)
        do {
            let consumer = try KafkaConsumer(configuration: Self.consumerConfiguration(cluster, group: "g")) { _ in }
            try consumer.subscribe(["t"])
            var got: [KafkaMessage] = []
            let deadline = Date().addingTimeInterval(30)
            while got.count < 10 && Date() < deadline { got += consumer.poll(maxMessages: 100, timeoutMs: 100) }
            #expect(got.count == 10)
            // Only the first six are finished: commit the offset after the sixth.
            try consumer.commit([KafkaTopicPartition("t", 0): got[5].offset + 1])
            #expect(try consumer.committed([KafkaTopicPartition("t", 0)]) == [KafkaTopicPartition("t", 0): 6])
            consumer.close()
        }
        let second = try KafkaConsumer(configuration: Self.consumerConfiguration(cluster, group: "g")) { _ in }
        try second.subscribe(["t"])
        var replayed: [KafkaMessage] = []
        let deadline = Date().addingTimeInterval(30)
        while replayed.count < 4 && Date() < deadline { replayed += second.poll(maxMessages: 100, timeoutMs: 100) }
        #expect(replayed.map { $0.value.first! } == [6, 7, 8, 9])
        second.close()
    }

    @Test func anUnknownLibrdkafkaPropertyIsRefusedWithItsName() throws {
        #expect {
            _ = try KafkaProducer(configuration: KafkaConfiguration(["no.such.property": "1"]))
        } throws: { error in
            (error as? KafkaError)?.message.contains("no.such.property=1") == true
        }
    }
}
