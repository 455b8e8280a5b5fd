import Foundation
import Kafka
import KafkaTesting
import QuoteContract
import QuoteWorker
import ShippingRules
import Synchronization
import Testing

/// An embedded cluster that outlives the workers started on it: for restarts and hand-overs.
final class SequenceCluster: @unchecked Sendable {
    let cluster: EmbeddedKafkaCluster
    let kafka: KafkaConfiguration
    let topics = Topics.defaults
    let rules: RuleLibrary
    let producer: KafkaProducer

    init(partitions: Int) throws {
        cluster = try EmbeddedKafkaCluster(brokers: 1, topics: TopicLayout.specs(.defaults, partitions: partitions))
        kafka = KafkaConfiguration([
            "bootstrap.servers": cluster.bootstrapServers, "fetch.wait.max.ms": "5",
            "session.timeout.ms": "6000", "heartbeat.interval.ms": "500", "group.id": "sequence-tests",
        ])
        rules = try RuleLibrary.load(path: WorkerHarness.exampleRulesPath)
        producer = try KafkaProducer(configuration: KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers, "linger.ms": "1"]))
    }

    deinit { producer.close(timeoutMs: 2_000) }

    func start(clock: ManualClock = ManualClock(WorkerHarness.now), logger: Logger = .silent,
               _ configure: (inout WorkerConfiguration) -> Void = { _ in }) throws -> RunningWorker {
        var config = WorkerConfiguration(kafka: kafka)
        configure(&config)
        return try RunningWorker(Worker(configuration: config, engine: rules, clock: clock, logger: logger))
    }

    func event(_ session: String, _ sequence: Int64) -> AddressChangeEvent {
        AddressChangeEvent(eventID: "evt-\(session)-\(sequence)", sessionID: session, sequence: sequence, merchant: "acme",
                           paymentMethodType: "APPLE_PAY", trigger: .addressChanged, currency: .usd,
                           shippingAddress: .cupertino, cart: .twoShirts, occurredAt: WorkerHarness.now)
    }

    @discardableResult
    func produce(_ records: [KafkaOutgoingMessage]) -> [KafkaDeliveryReport] { TopicAccess.produce(records, with: producer) }

    func produce(_ events: [AddressChangeEvent]) {
        produce(events.map { KafkaOutgoingMessage(topic: topics.addressChanged, key: Array($0.sessionID.utf8), value: $0.encode()) })
    }

    /// Every record of a topic from the beginning, once `enough` holds or the time is up.
    func read(_ topic: String, timeout: TimeInterval = 30, until enough: ([KafkaMessage]) -> Bool) throws -> [KafkaMessage] {
        try TopicAccess.read(topic, kafka: kafka, timeout: timeout, until: enough)
    }
}

/// A worker running on its own thread until `stop`.
final class RunningWorker: @unchecked Sendable {
    let worker: Worker
    private let done = DispatchSemaphore(value: 0)
    private let failure = LockedText()

    init(_ worker: Worker) {
        self.worker = worker
        let done = self.done, failure = self.failure
        Thread {
            do { try worker.run() } catch { failure.set("\(error)") }
            done.signal()
        }.start()
    }

    var error: String? { failure.value }

    func awaitAssignment(timeout: TimeInterval = 30) {
        let deadline = Date().addingTimeInterval(timeout)
        while worker.assignedPartitions.isEmpty && error == nil && Date() < deadline { usleep(20_000) }
    }

    func awaitFinished(_ count: Int, timeout: TimeInterval = 60) -> WorkerMetrics.Snapshot {
        worker.metrics.awaitFinished(count, timeout: timeout)
    }

    /// Stops the worker and waits up to `timeout` seconds for its thread: a worker that does not
    /// stop fails the test instead of hanging the suite.
    func stop(timeout: TimeInterval = 60) {
        worker.stop()
        if done.wait(timeout: .now() + timeout) == .timedOut {
            Issue.record("the worker did not stop within \(Int(timeout)) s of its stop")
        }
    }
}

final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text: String?
    var value: String? { lock.withLock { text } }
    func set(_ t: String) { lock.withLock { text = t } }
}
