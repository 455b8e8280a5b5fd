import Foundation
import Kafka
import KafkaTesting
import QuoteContract
import QuoteWorker
import ShippingRules
import Synchronization
import Testing

/// An embedded broker with the contract's topics and one worker running on its own thread.
final class WorkerHarness: @unchecked Sendable {
    let cluster: EmbeddedKafkaCluster
    let topics = Topics.defaults
    let kafka: KafkaConfiguration
    let rules: RuleLibrary
    let clock: ManualClock
    let worker: Worker
    private let done = DispatchSemaphore(value: 0)
    let producer: KafkaProducer

    static let exampleRulesPath: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/rules/us-acme.yaml").path
    }()

    /// A fixed instant in the middle of a business day: delivery dates are the same on every run.
    static let now = RFC3339.parse("2026-10-13T17:00:00Z")!

    /// `startWorker: false` leaves the worker idle until `start()`, so a test can look at it first.
    /// `kafkaOverrides` are librdkafka properties laid over the harness's (e.g. `statistics.interval.ms`).
    init(partitions: Int = 4, logger: Logger = .silent, startWorker: Bool = true, kafkaOverrides: [String: String] = [:]) throws {
        cluster = try EmbeddedKafkaCluster(brokers: 1, topics: TopicLayout.specs(.defaults, partitions: partitions))
        kafka = KafkaConfiguration([
            "bootstrap.servers": cluster.bootstrapServers,
            "fetch.wait.max.ms": "5",
            "session.timeout.ms": "6000",
            "heartbeat.interval.ms": "500",
        ])
        rules = try RuleLibrary.load(path: Self.exampleRulesPath)
        clock = ManualClock(Self.now)
        var config = WorkerConfiguration(kafka: kafka)
        config.kafka["group.id"] = "test-workers"
        for (key, value) in kafkaOverrides { config.kafka[key] = value }
        worker = try Worker(configuration: config, engine: rules, clock: clock, logger: logger)
        producer = try KafkaProducer(configuration: KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers, "linger.ms": "1",
                                                                        "message.max.bytes": "2000000"]))
        if startWorker { start() }
    }

    private let started = Mutex(false)

    /// Starts the worker's thread (once); `init` does it unless told not to.
    func start() {
        guard started.withLock({ s in defer { s = true }; return !s }) else { return }
        let worker = self.worker, done = self.done
        let thread = Thread {
            try? worker.run()
            done.signal()
        }
        thread.start()
    }

    /// Waits until the worker owns partitions (the first group join takes about 3 s).
    func awaitAssignment() {
        let deadline = Date().addingTimeInterval(30)
        while worker.assignedPartitions.isEmpty && Date() < deadline { usleep(20_000) }
    }

    func stop() {
        worker.stop()
        if started.withLock({ $0 }) && done.wait(timeout: .now() + 60) == .timedOut {
            Issue.record("the worker did not stop within 60 s of its stop")
        }
        producer.close(timeoutMs: 2_000)
    }

    @discardableResult
    func produce(_ records: [KafkaOutgoingMessage]) -> [KafkaDeliveryReport] { TopicAccess.produce(records, with: producer) }

    func event(session: String, sequence: Int64, address: PartialAddress = .cupertino,
               cart: Cart = .twoShirts, trigger: QuoteTrigger = .addressChanged) -> AddressChangeEvent {
        AddressChangeEvent(eventID: "evt-\(session)-\(sequence)", sessionID: session, sequence: sequence, merchant: "acme",
                           paymentMethodType: "APPLE_PAY", trigger: trigger, currency: .usd, shippingAddress: address,
                           cart: cart, occurredAt: Self.now)
    }

    func record(_ event: AddressChangeEvent, headers: [KafkaHeader] = []) -> KafkaOutgoingMessage {
        KafkaOutgoingMessage(topic: topics.addressChanged, key: Array(event.sessionID.utf8), value: event.encode(), headers: headers)
    }

    /// Reads a topic from the beginning until `enough` says so or the time is up.
    func read(_ topic: String, timeout: TimeInterval = 30, until enough: ([KafkaMessage]) -> Bool) throws -> [KafkaMessage] {
        try TopicAccess.read(topic, kafka: kafka, timeout: timeout, until: enough)
    }

    /// Waits until the worker has finished `count` events (answered or dropped).
    func awaitFinished(_ count: Int, timeout: TimeInterval = 60) -> WorkerMetrics.Snapshot {
        worker.metrics.awaitFinished(count, timeout: timeout)
    }
}

extension WorkerMetrics {
    /// Waits until `count` events have an outcome or a drop, or the time is up; the counts then.
    func awaitFinished(_ count: Int, timeout: TimeInterval) -> Snapshot {
        let deadline = Date().addingTimeInterval(timeout)
        var m = snapshot()
        while m.totalOutcomes + m.totalDrops < count && Date() < deadline {
            usleep(20_000)
            m = snapshot()
        }
        return m
    }
}

extension PartialAddress {
    static let cupertino = PartialAddress(city: "Cupertino", state: "CA", postalCode: "95014", countryCode: "US")
    static let toronto = PartialAddress(city: "Toronto", state: "ON", postalCode: "M5V", countryCode: "CA")
}

extension Cart {
    static let twoShirts = Cart(
        items: [CartItem(id: "sku-1", label: "T-shirt", quantity: 2, unitAmount: Money(minorUnits: 2500, currency: .usd),
                         taxCategory: "apparel", weightGrams: 300)],
        discounts: [Discount(id: "promo", label: "Promo", amount: Money(minorUnits: -500, currency: .usd))])
}

extension KafkaMessage {
    func headerText(_ name: String) -> String? { header(name).map { String(decoding: $0, as: UTF8.self) } }
    var keyText: String? { key.map { String(decoding: $0, as: UTF8.self) } }
}
