import Foundation
import Kafka
import ShippingRules

/// One ShipQuote worker: a member of the consumer group that turns address-change events into
/// quote replies. `run` blocks its thread (librdkafka's calls block); `stop` may be called from any thread.
///
/// The parts, each with one subject: `EventProcessor` decides (gate, conflation, quote, records to
/// produce), `DeliveryPipeline` produces and says which offsets may be committed,
/// `PartitionLifecycle` says which partitions are fetched, and `WorkerLoop` turns them on one thread.
public final class Worker: Sendable {
    public let configuration: WorkerConfiguration
    public let metrics: WorkerMetrics
    private let control: WorkerControl
    private let loop: Confined<WorkerLoop>

    /// Creates the Kafka clients (so that a configuration librdkafka refuses fails here); nothing
    /// connects or starts a thread before `run`.
    public init(configuration: WorkerConfiguration, engine: any QuoteEngine, clock: any Clock = SystemClock(),
                logger: Logger = Logger(), metrics: WorkerMetrics = WorkerMetrics()) throws(KafkaError) {
        self.configuration = configuration
        self.metrics = metrics
        let control = WorkerControl()
        self.control = control
        let logSink = logger.kafkaLogSink
        let onError: @Sendable (KafkaError) -> Void = { error in
            if error.isFatal { control.fail(WorkerFailure.kafkaClientFailed(error)) }
            logger.kafkaClientError(error)
        }
        let producer = try KafkaProducer(configuration: configuration.producerKafka, log: logSink, onError: onError,
                                         onStatistics: { metrics.ingestStatistics($0) })
        let stateProducer = try KafkaProducer(configuration: configuration.stateProducerKafka, log: logSink, onError: onError)
        let takeovers = try TakeoverReader(kafka: configuration.consumerKafka, stateTopic: configuration.topics.quoteState,
                                           inputTopic: configuration.topics.addressChanged, log: logSink)
        // The consumer's rebalance callback reaches the loop, which is made after the consumer.
        let relay = RebalanceRelay()
        let consumer = try KafkaConsumer(configuration: configuration.consumerKafka, log: logSink, onError: onError,
                                         onStatistics: { metrics.ingestStatistics($0) }) { relay.loop?.rebalanced($0) }
        let loop = WorkerLoop(configuration: configuration, engine: engine, clock: clock, logger: logger, metrics: metrics,
                              control: control, consumer: consumer, producer: producer, stateProducer: stateProducer,
                              takeovers: takeovers)
        relay.loop = loop
        self.loop = Confined(loop)
    }

    /// Runs until `stop`. Throws when the worker cannot go on: topics that do not fit together,
    /// a fatal client error, a stall, a partition whose state cannot be restored.
    public func run() throws { try loop.value.run() }

    /// Asks the loop to finish: stop fetching, deliver what is in flight, commit, leave the group.
    public func stop() { control.requestStop() }

    public var isStopping: Bool { control.stopRequested }

    /// Partitions this worker owns now (updated on every rebalance).
    public var assignedPartitions: [KafkaTopicPartition] { control.assignment }
}

/// Holds the loop for the worker: only the thread inside `run` touches it, and `WorkerLoop.run`
/// refuses a second entry.
private struct Confined<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Passes the consumer's rebalance callbacks (which run inside `poll`, on the loop's thread) to the loop.
private final class RebalanceRelay {
    weak var loop: WorkerLoop?
}
