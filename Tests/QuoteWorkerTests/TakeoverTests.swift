import Foundation
import Kafka
import KafkaTesting
import QuoteContract
import QuoteWorker
import ShippingRules
import Testing

/// State record and reply are produced together, so a worker can die with replies delivered and
/// their state records not: the next owner must still never publish an older answer after them.
@Suite struct TakeoverTests {
    @Test func aWorkerThatDiesWithRepliesDeliveredButTheirStateLostIsFollowedByNoOlderAnswer() throws {
        // Broker 1 leads the input and replies and coordinates the group; broker 2 leads the state
        // partition, so taking broker 2 down holds back exactly the state records.
        let cluster = try EmbeddedKafkaCluster(brokers: 2, topics: TopicLayout.specs(.defaults, partitions: 1))
        for topic in [Topics.defaultAddressChanged, Topics.defaultQuoteReplies, Topics.defaultDeadLetters] {
            cluster.setLeader(topic: topic, partition: 0, broker: 1)
        }
        cluster.setLeader(topic: Topics.defaultQuoteState, partition: 0, broker: 2)
        let group = "takeover-tests"
        cluster.setGroupCoordinator(group, broker: 1)
        let kafka = KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers, "fetch.wait.max.ms": "5", "group.id": group])
        let rules = try RuleLibrary.load(path: WorkerHarness.exampleRulesPath)
        func worker() throws -> RunningWorker {
            // One record a batch: batch conflation alone must not be what hides an older answer.
            var config = WorkerConfiguration(kafka: kafka, maxBatch: 1, defaultTimeToLive: nil, shutdownGrace: .zero)
            config.commitInterval = .milliseconds(20)
            return RunningWorker(try Worker(configuration: config, engine: rules, clock: ManualClock(WorkerHarness.now), logger: .silent))
        }
        let producer = try KafkaProducer(configuration: KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers, "linger.ms": "1"]))
        defer { producer.close(timeoutMs: 2_000) }
        func send(_ session: String, _ sequence: Int64) {
            let event = AddressChangeEvent(eventID: "evt-\(session)-\(sequence)", sessionID: session, sequence: sequence, merchant: "acme",
                                           paymentMethodType: "APPLE_PAY", trigger: .addressChanged, currency: .usd,
                                           shippingAddress: .cupertino, cart: .twoShirts, occurredAt: WorkerHarness.now)
            // What each delivery came to is the readers' to show: the test asserts on what they read.
            _ = TopicAccess.produce([KafkaOutgoingMessage(topic: Topics.defaultAddressChanged, key: Array(session.utf8),
                                                          value: event.encode())], with: producer)
        }
        // One reader for the whole test, made while every broker is up: a reader made while broker 2
        // is down may ask it for its group's coordinator and wait out the request's time-out.
        var readerConfig = kafka
        readerConfig["group.id"] = "takeover-tests-reader"
        cluster.setGroupCoordinator("takeover-tests-reader", broker: 1)
        let reader = try KafkaConsumer(configuration: readerConfig) { _ in }
        defer { reader.close() }
        try reader.assign([KafkaTopicPartition(Topics.defaultQuoteReplies, 0): 0])
        var seen: [QuoteReply] = []
        func replies(until enough: ([QuoteReply]) -> Bool) -> [QuoteReply] {
            let deadline = Date().addingTimeInterval(30)
            while !enough(seen) && Date() < deadline {
                seen += reader.poll(maxMessages: 1_000, timeoutMs: 50).compactMap { try? QuoteReply.decode($0.value) }
            }
            return seen
        }

        let first = try worker()
        first.awaitAssignment()
        send("warm-up", 1)
        _ = replies { $0.count == 1 }
        #expect(first.awaitFinished(1).outcomes == ["update": 1])
        // Its state record is delivered, and the loop commits every 20 ms: the warm-up is behind the commit.
        _ = try TopicAccess.read(Topics.defaultQuoteState, kafka: kafka, timeout: 30) { $0.count == 1 }
        usleep(300_000)

        cluster.setBrokerDown(2)
        for sequence in Int64(1)...4 {
            send("s", sequence)
            _ = replies { $0.contains { $0.sessionID == "s" && $0.sequence == sequence } }
        }
        // Dies: nothing of session s is finished (its state records never left), so nothing is
        // committed past the warm-up, and the queued state records are dropped with the producer.
        first.stop()
        cluster.setBrokerUp(2)

        let second = try worker()
        second.awaitAssignment()
        // Sent once the replay range (1…4) is handled, so that 5 lies past it.
        _ = second.awaitFinished(4)
        send("s", 5)
        let all = replies { $0.contains { $0.sessionID == "s" && $0.sequence == 5 } }
        let answers = all.filter { $0.sessionID == "s" }.map(\.sequence)
        // The second owner answers only the newest of the replay range (4), then 5.
        #expect(answers == [1, 2, 3, 4, 4, 5])
        let snapshot = second.awaitFinished(5)
        second.stop()
        #expect(snapshot.drops == [.superseded: 3])
        #expect(snapshot.outcomes == ["update": 2])
        #expect(second.error == nil)
    }
}
