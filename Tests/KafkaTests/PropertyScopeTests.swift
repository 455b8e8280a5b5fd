import Kafka
import KafkaTesting
import Synchronization
import Testing

/// One configuration, two clients: each gets only the properties librdkafka says are its own.
@Suite struct PropertyScopeTests {
    @Test func scopesComeFromTheLinkedLibrdkafka() {
        #expect(KafkaPropertyScope.of("queue.buffering.max.ms") == .producer)
        #expect(KafkaPropertyScope.of("linger.ms") == .producer)  // an alias, with its target's scope
        #expect(KafkaPropertyScope.of("session.timeout.ms") == .consumer)
        #expect(KafkaPropertyScope.of("auto.offset.reset") == .consumer)  // a topic property
        #expect(KafkaPropertyScope.of("acks") == .producer)
        #expect(KafkaPropertyScope.of("bootstrap.servers") == .both)
        #expect(KafkaPropertyScope.of("no.such.property") == nil)
    }

    @Test func aliasesNameTheOnePropertyTheyStandFor() {
        #expect(KafkaPropertyScope.canonicalName("linger.ms") == "queue.buffering.max.ms")
        #expect(KafkaPropertyScope.canonicalName("bootstrap.servers") == "metadata.broker.list")
        #expect(KafkaPropertyScope.canonicalName("session.timeout.ms") == "session.timeout.ms")
    }

    @Test func aDefaultIsNotSetWhenAnotherNameOfItsPropertyIsSet() {
        var config = KafkaConfiguration(["queue.buffering.max.ms": "50"])
        config.setDefault("linger.ms", "1")
        #expect(config.properties == ["queue.buffering.max.ms": "50"])
        config.setDefault("acks", "all")
        #expect(config.properties == ["queue.buffering.max.ms": "50", "acks": "all"])
    }

    @Test func anOverrideReplacesTheValueGivenUnderAnyNameOfItsProperty() {
        var config = KafkaConfiguration(["queue.buffering.max.ms": "50", "acks": "all"])
        config.override("linger.ms", "100")
        #expect(config.properties == ["linger.ms": "100", "acks": "all"])
        config.override("linger.ms", "0")
        #expect(config.properties == ["linger.ms": "0", "acks": "all"])
        config.override("client.id", "state")
        #expect(config.properties == ["linger.ms": "0", "acks": "all", "client.id": "state"])
    }

    @Test func scopingDropsOnlyTheOtherClientsProperties() {
        let shared = KafkaConfiguration(["bootstrap.servers": "b:9092", "linger.ms": "1", "queue.buffering.max.ms": "1",
                                         "session.timeout.ms": "6000", "group.id": "g", "no.such.property": "1"])
        #expect(shared.scoped(to: .consumer).properties ==
                ["bootstrap.servers": "b:9092", "session.timeout.ms": "6000", "group.id": "g", "no.such.property": "1"])
        #expect(shared.scoped(to: .producer).properties ==
                ["bootstrap.servers": "b:9092", "linger.ms": "1", "queue.buffering.max.ms": "1", "no.such.property": "1"])
    }

    /// librdkafka's warnings about properties of the other client, as its log sink receives them.
    static func ignoredPropertyWarnings(_ make: (@escaping KafkaLogSink) throws -> Void) rethrows -> [String] {
        let lines = Mutex<[String]>([])
        try make { record in lines.withLock { $0.append(record.message) } }
        return lines.withLock { $0 }.filter { $0.contains("will be ignored by this") }
    }

    @Test func aScopedConsumerAndProducerLogNoIgnoredPropertyWarning() throws {
        let cluster = try EmbeddedKafkaCluster()
        let shared = KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers, "group.id": "g",
                                         "linger.ms": "1", "session.timeout.ms": "6000"])
        // Unscoped, librdkafka complains: the check below would see a warning if there were one.
        let unscoped = try Self.ignoredPropertyWarnings { sink in
            _ = try KafkaConsumer(configuration: shared, log: sink) { _ in }
        }
        // (librdkafka names the property an alias stands for.)
        #expect(unscoped.contains { $0.contains("queue.buffering.max.ms is a producer property") }, "\(unscoped)")

        let consumerWarnings = try Self.ignoredPropertyWarnings { sink in
            let consumer = try KafkaConsumer(configuration: shared.scoped(to: .consumer), log: sink) { _ in }
            consumer.close()
        }
        #expect(consumerWarnings == [])
        let producerWarnings = try Self.ignoredPropertyWarnings { sink in
            let producer = try KafkaProducer(configuration: shared.scoped(to: .producer), log: sink)
            producer.close(timeoutMs: 1_000)
        }
        #expect(producerWarnings == [])
    }

    @Test func anUnknownPropertySurvivesScopingAndFailsNamingIt() {
        let config = KafkaConfiguration(["no.such.property": "1"])
        #expect {
            _ = try KafkaProducer(configuration: config.scoped(to: .producer))
        } throws: { error in
            (error as? KafkaError)?.message.contains("no.such.property=1") == true
        }
        #expect {
            _ = try KafkaConsumer(configuration: config.scoped(to: .consumer)) { _ in }
        } throws: { error in
            (error as? KafkaError)?.message.contains("no.such.property=1") == true
        }
    }
}
