import Foundation
import Kafka
import QuoteContract
import QuoteGateway
import ShippingRules
import Testing

/// Java's partitioner, as Kafka's clients compute it: `Utils.toPositive(Utils.murmur2(key)) % numPartitions`.
/// Written here from Kafka's source, apart from librdkafka, so that the tests compare two implementations.
enum JavaPartitioner {
    /// `org.apache.kafka.common.utils.Utils.murmur2`: MurmurHash2, seed 0x9747b28c, little-endian words.
    static func murmur2(_ data: [UInt8]) -> Int32 {
        let m: UInt32 = 0x5bd1_e995
        let r: UInt32 = 24
        var h: UInt32 = 0x9747_b28c ^ UInt32(data.count)
        let whole = data.count / 4
        for i in 0..<whole {
            let b = i * 4
            var k = UInt32(data[b]) | UInt32(data[b + 1]) << 8 | UInt32(data[b + 2]) << 16 | UInt32(data[b + 3]) << 24
            k = k &* m
            k ^= k >> r
            k = k &* m
            h = h &* m
            h ^= k
        }
        let tail = whole * 4
        switch data.count % 4 {
        case 3:
            h ^= UInt32(data[tail + 2]) << 16
            fallthrough
        case 2:
            h ^= UInt32(data[tail + 1]) << 8
            fallthrough
        case 1:
            h ^= UInt32(data[tail])
            h = h &* m
        default: break
        }
        h ^= h >> 13
        h = h &* m
        h ^= h >> 15
        return Int32(bitPattern: h)
    }

    /// `Utils.toPositive(hash) % numPartitions`; `toPositive` clears the sign bit (it is not `abs`).
    static func partition(_ key: String, partitions: Int32) -> Int32 {
        (murmur2(Array(key.utf8)) & 0x7fff_ffff) % partitions
    }
}

/// Issue 15: one partitioner everywhere. A session's events must land on the partition a Java
/// gateway would choose, whichever producer sends them (QuoteGateway, `shipquote send`), and the
/// worker's replies on the partition Java's formula gives for their key.
@Suite struct PartitionerTests {
    /// Kafka's own test vectors for `Utils.murmur2` (UtilsTest.testMurmur2).
    @Test func murmur2MatchesKafkasOwnVectors() {
        let vectors: [(String, Int32)] = [
            ("21", -973_932_308), ("foobar", -790_332_482), ("a-little-bit-long-string", -985_981_536),
            ("a-little-bit-longer-string", -1_486_304_829),
            ("lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58_897_971), ("abc", 479_470_107),
        ]
        for (key, hash) in vectors { #expect(JavaPartitioner.murmur2(Array(key.utf8)) == hash, "\(key)") }
    }

    /// Key → partition over 8 partitions, from the formula and confirmed with confluent-kafka
    /// 2.16.1 (librdkafka 2.16.0, `partitioner=murmur2_random`) producing to `shipquote broker`. With
    /// librdkafka's default, `consistent_random`, the same keys landed on 3, 7, 0, 6, 4, 5, 4, 3.
    static let knownPairs: [(key: String, partition: Int32)] = [
        ("9a0c6f0e-4b1e-4c1a-9a55-3c2f1d7e8b10", 7),  // examples/events/contract-example.json
        ("3f2b1c9e-0d4a-4e55-8c1f-2a9b7d6e5c40", 2),
        ("7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6", 2),
        ("session-1", 4), ("session-2", 3), ("foobar", 6), ("21", 4), ("a", 4),
    ]

    @Test func knownKeysLandWhereJavasFormulaPutsThem() {
        for pair in Self.knownPairs { #expect(JavaPartitioner.partition(pair.key, partitions: 8) == pair.partition, "\(pair.key)") }
    }

    @Test func everyProducerOfShipQuoteNamesThePartitioner() {
        #expect(KeyPartitioning.property == "partitioner")
        #expect(KeyPartitioning.librdkafkaName == "murmur2_random")
    }

    /// An 8-partition `shipquote broker` with a worker: the gateway library's events, `shipquote send`'s
    /// event and the worker's replies each land on Java's partition for their session.
    @Test func gatewaySendAndWorkerRepliesLandOnJavasPartition() async throws {
        let (broker, brokerOut, _) = try Binary.start(["broker", "--topic", "shipping.address-changed:8", "--topic", "shipping.quote-replies:8",
                                                       "--topic", "shipping.quote-state:8", "--topic", "shipping.quote-dlq:1"])
        defer { Binary.stop(broker) }
        let bootstrap = try #require(Binary.firstLine(of: brokerOut, timeout: 20))
        let worker = try WorkerProcess(bootstrap: bootstrap)
        defer { Binary.stop(worker.process) }

        // Once the worker has joined: beside the whole suite a join can take long enough that events
        // sent before it would pass their reply_by and be dropped as expired, unanswered.
        try #require(worker.awaitLog("partitions assigned", timeout: 180), "the worker never joined: \(worker.stderr)")

        // Through the gateway library: 24 sessions, so a wrong partitioner cannot pass by chance.
        let kafka = KafkaConfiguration(["bootstrap.servers": bootstrap, "fetch.wait.max.ms": "5"])
        let gateway = QuoteGateway(configuration: .init(kafka: kafka))
        defer { gateway.close() }
        let sessions = (0..<24).map { "partition-\($0)-\(UUID().uuidString.lowercased())" } + Self.knownPairs.map(\.key).filter { $0 != Self.sendSession }
        try await gateway.send(sessions.map(Self.event))

        // Through `shipquote send`, which waits for the worker's reply.
        let example = Binary.repository.appendingPathComponent("examples/events/contract-example.json").path
        let sent = try Binary.run(["send", "--bootstrap-servers", bootstrap, "--event", example, "--restamp", "--timeout", "60",
                                   "-X", "fetch.wait.max.ms=5"], timeout: 90)
        #expect(sent.status == 0, "send: \(sent.stderr)")

        let events = try TopicRecords.read(bootstrap: bootstrap, topic: Topics.defaultAddressChanged, partitions: 8,
                                           until: { $0.count >= sessions.count + 1 }, timeout: 30)
        var landed: [String: Int32] = [:]
        for record in events { landed[String(decoding: record.key ?? [], as: UTF8.self)] = record.partition }
        for session in sessions + [Self.sendSession] {
            #expect(landed[session] == JavaPartitioner.partition(session, partitions: 8), "event of \(session)")
        }
        #expect(landed[Self.sendSession] == 7)

        // The worker's replies are keyed by session too.
        let replies = try TopicRecords.read(bootstrap: bootstrap, topic: Topics.defaultQuoteReplies, partitions: 8,
                                            until: { Set($0.compactMap(\.key)).count >= sessions.count + 1 }, timeout: 120)
        var replied: [String: Int32] = [:]
        for record in replies { replied[String(decoding: record.key ?? [], as: UTF8.self)] = record.partition }
        for session in sessions + [Self.sendSession] {
            #expect(replied[session] == JavaPartitioner.partition(session, partitions: 8), "reply to \(session)")
        }
    }

    static let sendSession = "9a0c6f0e-4b1e-4c1a-9a55-3c2f1d7e8b10"

    static func event(_ session: String) -> AddressChangeEvent {
        AddressChangeEvent(sessionID: session, sequence: 1, paymentMethodType: "APPLE_PAY", trigger: .addressChanged,
                           currency: .usd, shippingAddress: PartialAddress(city: "Cupertino", state: "CA", postalCode: "95014", countryCode: "US"),
                           cart: Cart(subtotal: Money(minorUnits: 1000, currency: .usd)), occurredAt: Date(),
                           replyBy: Date().addingTimeInterval(600))
    }
}

/// Reads a topic's partitions from the beginning, without a group.
enum TopicRecords {
    static func read(bootstrap: String, topic: String, partitions: Int32, until done: ([KafkaMessage]) -> Bool,
                     timeout: TimeInterval) throws -> [KafkaMessage] {
        let reader = try KafkaConsumer(configuration: KafkaConfiguration([
            "bootstrap.servers": bootstrap, "group.id": "read-\(UUID().uuidString)", "fetch.wait.max.ms": "5"])) { _ in }
        defer { reader.close() }
        var start: [KafkaTopicPartition: Int64] = [:]
        for p in 0..<partitions { start[KafkaTopicPartition(topic, p)] = 0 }
        try reader.assign(start)
        var records: [KafkaMessage] = []
        let deadline = Date().addingTimeInterval(timeout)
        while !done(records) && Date() < deadline { records += reader.poll(maxMessages: 1_000, timeoutMs: 50) }
        return records
    }
}
