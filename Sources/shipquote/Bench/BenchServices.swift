import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import ShippingRules

/// What a phase runs the load through: N ShipQuote workers, or N echo workers. Both are members
/// of one consumer group over the phase's input topic, in this process, on threads of their own.
protocol BenchService: AnyObject {
    /// Partitions owned across the members: the load starts once every partition has an owner.
    var assignedPartitions: Int { get }
    /// A member that stopped on an error, if any.
    var failure: String? { get }
    /// Counters once the phase is over; the echo has no drops.
    func counts() -> ServiceCounts
    func stop()
}

struct ServiceCounts {
    var eventsIn = 0
    var outcomes: [String: Int] = [:]
    var drops: [String: Int] = [:]
    var deadLetters = 0
    /// Events the service is done with, one way or another (answered, dropped, dead-lettered).
    var finished = 0
}

/// ShipQuote workers exactly as `shipquote run` builds them, but with the bench's topics and
/// Kafka settings and a logger that reports only errors (logging is not what is measured).
final class QuoteWorkers: BenchService {
    private let workers: [Worker]
    private let done = DispatchSemaphore(value: 0)
    private let errors = LockedErrors()

    init(count: Int, kafka: KafkaConfiguration, topics: Topics, engine: RuleLibrary, maxBatch: Int) throws {
        var config = WorkerConfiguration(topics: topics, kafka: kafka, maxBatch: maxBatch)
        config.kafka["group.id"] = "bench-quote-\(topics.addressChanged)"
        let logger = Logger(minimum: .error)
        workers = try (0..<count).map { _ in try Worker(configuration: config, engine: engine, logger: logger) }
        for worker in workers {
            let thread = Thread { [done, errors] in
                do { try worker.run() } catch { errors.add("\(error)") }
                done.signal()
            }
            thread.name = "bench-worker"
            thread.start()
        }
    }

    var assignedPartitions: Int { workers.reduce(0) { $0 + $1.assignedPartitions.count } }
    var failure: String? { errors.first }

    func counts() -> ServiceCounts {
        var c = ServiceCounts()
        for w in workers {
            let m = w.metrics.snapshot()
            c.eventsIn += m.eventsIn
            c.finished += m.totalOutcomes + m.totalDrops
            c.deadLetters += m.deadLetters
            c.outcomes.merge(m.outcomes, uniquingKeysWith: +)
            c.drops.merge(m.drops.map { ($0.key.rawValue, $0.value) }, uniquingKeysWith: +)
        }
        return c
    }

    func stop() {
        for w in workers { w.stop() }
        for _ in workers { done.wait() }
    }
}

final class EchoWorkers: BenchService {
    private let workers: [EchoWorker]

    init(count: Int, kafka: KafkaConfiguration, inputTopic: String, replyTopic: String, maxBatch: Int) throws {
        var config = kafka
        config["group.id"] = "bench-echo-\(inputTopic)"
        workers = try (0..<count).map { _ in try EchoWorker(kafka: config, inputTopic: inputTopic, replyTopic: replyTopic, maxBatch: maxBatch) }
        for w in workers { try w.start() }
    }

    var assignedPartitions: Int { workers.reduce(0) { $0 + $1.assignedPartitions } }
    var failure: String? { nil }

    func counts() -> ServiceCounts {
        let answered = workers.reduce(0) { $0 + $1.answered.count }
        let unreadable = workers.reduce(0) { $0 + $1.unreadable.count }
        return ServiceCounts(eventsIn: answered + unreadable, outcomes: ["echo": answered], drops: [:], deadLetters: unreadable,
                             finished: answered + unreadable)
    }

    func stop() { for w in workers { w.stop() } }
}

final class LockedErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []
    func add(_ e: String) { lock.withLock { errors.append(e) } }
    var first: String? { lock.withLock { errors.first } }
}
