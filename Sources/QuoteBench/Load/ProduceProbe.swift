import Foundation
import Kafka
import Synchronization

/// The generator alone: the plan's events produced as fast as possible to a topic nobody reads,
/// until every delivery report is in. If ShipQuote's or the echo's saturated rate is far below
/// this, the generator is not what limits them.
struct ProduceProbe {
    struct Result {
        let events: Int
        /// Handed to the producer, per second.
        let handedRate: Double
        /// Acknowledged by the broker, per second, from the first send to the last report.
        let deliveredRate: Double
        let failed: Int
    }

    static func run(_ context: BenchPhase.Context) throws -> Result {
        let topic = try context.broker.sinkTopic(for: "produce-only")
        let now = Date()
        let payloads = context.plan.events.map { BenchEvents.encode($0, merchant: context.merchant, occurredAt: now) }
        let producer = try KafkaProducer(configuration: BenchPhase.generatorKafka(context.broker.kafka))
        defer { producer.close(timeoutMs: 5_000) }
        // Connected and with metadata before the clock starts, as in the phases.
        for message in BenchEvents.warmup(topic: topic, partitions: 0..<context.broker.partitions, merchant: context.merchant) {
            try producer.send(message) { _ in }
        }
        producer.flush(timeoutMs: 30_000)
        let generator = LoadGenerator(producer: producer, topic: topic, plan: context.plan, payloads: payloads, ledger: nil,
                                      rate: .max, duration: context.settings.duration)
        generator.start()
        generator.awaitProduced()
        let produced = generator.produced.count
        let deadline = uptimeNanoseconds() + 60_000_000_000
        while generator.delivered.count + generator.failed.count < produced && uptimeNanoseconds() < deadline {
            usleep(500)
        }
        let seconds = Double(uptimeNanoseconds() - generator.startedAt) / 1e9
        return Result(events: produced, handedRate: generator.produceRate,
                      deliveredRate: Double(generator.delivered.count) / seconds,
                      failed: generator.failed.count)
    }
}
