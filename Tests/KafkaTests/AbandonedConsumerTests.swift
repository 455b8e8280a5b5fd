import Kafka
import Testing

/// `abandon()` is for a consumer whose owner stopped on a fatal client error: librdkafka 2.0.2's
/// destroy was seen never to return there, and its threads may still call the consumer's callbacks.
/// So an abandoned consumer is held until the process exits, reachable (a leak checker sees it held
/// on purpose), and never destroyed; any other consumer is destroyed with its last reference.
@Suite struct AbandonedConsumerTests {
    /// A consumer without a group that never assigns, so it has nothing to ask a broker (librdkafka
    /// connects when it needs to; with a group it would look for the coordinator at once) and an
    /// abandoned one stays quiet for the rest of the run.
    static func idleConsumer() throws -> KafkaConsumer {
        try KafkaConsumer(configuration: KafkaConfiguration(["bootstrap.servers": "127.0.0.1:9"])) { _ in }
    }

    @Test func anAbandonedConsumerOutlivesItsLastReference() throws {
        weak var held: KafkaConsumer?
        do {
            let consumer = try Self.idleConsumer()
            held = consumer
            consumer.abandon()
            consumer.abandon()      // a second call changes nothing
        }
        #expect(held != nil)
    }

    @Test func aConsumerNotAbandonedIsDestroyedWithItsLastReference() throws {
        weak var held: KafkaConsumer?
        do {
            let consumer = try Self.idleConsumer()
            held = consumer
            consumer.close()
        }
        #expect(held == nil)
    }
}
