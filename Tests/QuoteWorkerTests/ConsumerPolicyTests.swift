import Kafka
@testable import QuoteWorker
import Testing

/// ShipQuote's consumer policy, applied by the worker (the Kafka face takes any configuration).
@Suite struct ConsumerPolicyTests {
    @Test func fixedPropertiesAndDefaultsAreSetWhereNobodyChose() throws {
        let config = try ConsumerPolicy.shipQuote.applied(to: KafkaConfiguration(["bootstrap.servers": "b:9092"]))
        #expect(config.properties == ["bootstrap.servers": "b:9092", "enable.auto.commit": "false",
                                      "enable.auto.offset.store": "false", "partition.assignment.strategy": "range",
                                      "auto.offset.reset": "earliest"])
    }

    @Test func anOperatorsChoiceOfADefaultIsKept() throws {
        let config = try ConsumerPolicy.shipQuote.applied(to: KafkaConfiguration([
            "auto.offset.reset": "latest", "partition.assignment.strategy": "roundrobin", "enable.auto.commit": "false"]))
        #expect(config["auto.offset.reset"] == "latest")
        #expect(config["partition.assignment.strategy"] == "roundrobin")
    }

    @Test func overridingAutoCommitIsRefusedWithThePropertyNamed() {
        #expect(throws: ConsumerPolicyError.fixedPropertyOverridden(property: "enable.auto.commit", value: "true", required: "false")) {
            try ConsumerPolicy.shipQuote.applied(to: KafkaConfiguration(["enable.auto.commit": "true"]))
        }
        #expect(throws: ConsumerPolicyError.fixedPropertyOverridden(property: "enable.auto.offset.store", value: "true", required: "false")) {
            try ConsumerPolicy.shipQuote.applied(to: KafkaConfiguration(["enable.auto.offset.store": "true"]))
        }
    }

    @Test func cooperativeAssignorsAreRefusedWithWhatToUseInstead() {
        do {
            _ = try ConsumerPolicy.shipQuote.applied(to: KafkaConfiguration(["partition.assignment.strategy": "cooperative-sticky"]))
            Issue.record("a cooperative assignor must be refused")
        } catch {
            #expect(error == .cooperativeAssignor(strategy: "cooperative-sticky"))
            #expect(error.description.contains("partition.assignment.strategy=cooperative-sticky"))
            #expect(error.description.contains("use range or roundrobin"))
        }
    }

    /// The refusal reaches the worker: its consumer configuration cannot be built, naming the property.
    @Test func theWorkersConsumerConfigurationRefusesAnOverriddenAutoCommit() {
        let worker = WorkerConfiguration(kafka: KafkaConfiguration(["bootstrap.servers": "b:9092", "enable.auto.commit": "true"]))
        #expect {
            _ = try worker.consumerKafka
        } throws: { error in
            (error as? KafkaError)?.message.hasPrefix("librdkafka property enable.auto.commit=true") == true
        }
    }

    /// One shared configuration: each client gets its own properties and the policy, nothing of the other's.
    @Test func theWorkersClientsGetOnlyTheirOwnProperties() throws {
        let worker = WorkerConfiguration(kafka: KafkaConfiguration([
            "bootstrap.servers": "b:9092", "linger.ms": "2", "session.timeout.ms": "6000", "fetch.wait.max.ms": "5"]))
        let consumer = try worker.consumerKafka
        #expect(consumer["linger.ms"] == nil)
        #expect(consumer["session.timeout.ms"] == "6000" && consumer["enable.auto.commit"] == "false")
        let producer = worker.producerKafka
        #expect(producer["linger.ms"] == "2" && producer["bootstrap.servers"] == "b:9092")
        #expect(producer["session.timeout.ms"] == nil && producer["fetch.wait.max.ms"] == nil && producer["group.id"] == nil)
    }
}

/// The group timings a worker runs with when nobody chose others (issue: failover in seconds).
@Suite struct WorkerClientDefaultsTests {
    @Test func theConsumerTakesOverACrashedWorkersPartitionsInSeconds() throws {
        let consumer = try WorkerConfiguration(kafka: KafkaConfiguration(["bootstrap.servers": "b:9092"])).consumerKafka
        #expect(consumer["session.timeout.ms"] == "6000")
        #expect(consumer["heartbeat.interval.ms"] == "1000")
        #expect(consumer["max.poll.interval.ms"] == "30000")
        #expect(consumer["group.id"] == "shipquote")
        #expect(consumer["linger.ms"] == nil)  // a producer property never reaches the consumer
    }

    @Test func anOperatorsGroupTimingsWin() throws {
        let config = WorkerConfiguration(kafka: KafkaConfiguration(["session.timeout.ms": "45000", "max.poll.interval.ms": "300000"]))
        #expect(try config.consumerKafka["session.timeout.ms"] == "45000")
        #expect(try config.consumerKafka["heartbeat.interval.ms"] == "1000")
        #expect(config.effectiveStallLimit == .seconds(300))
    }

    @Test func theStallLimitFollowsTheDefaultPollInterval() {
        #expect(WorkerConfiguration().effectiveStallLimit == .seconds(30))
    }

    @Test func theProducerLingersOneMillisecondUnlessTheOperatorSaidOtherwiseUnderEitherName() {
        #expect(WorkerConfiguration().producerKafka["linger.ms"] == "1")
        #expect(WorkerConfiguration().producerKafka["message.max.bytes"] == "2097152")
        let chosen = WorkerConfiguration(kafka: KafkaConfiguration(["queue.buffering.max.ms": "20"])).producerKafka
        #expect(chosen["linger.ms"] == nil && chosen["queue.buffering.max.ms"] == "20")
        #expect(chosen["session.timeout.ms"] == nil)
    }
}
