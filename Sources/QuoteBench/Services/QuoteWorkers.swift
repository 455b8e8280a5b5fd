import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import ShippingRules
import Synchronization

/// ShipQuote workers exactly as `shipquote run` builds them, but with the bench's topics and
/// Kafka settings and a logger that reports only errors (logging is not what is measured).
final class QuoteWorkers: BenchService, Sendable {
    private let workers: [Worker]
    private let done = DispatchSemaphore(value: 0)
    /// Why members stopped, in the order they did.
    private let errors = Mutex<[String]>([])

    init(count: Int, kafka: KafkaConfiguration, topics: Topics, engine: RuleLibrary, maxBatch: Int) throws {
        var config = WorkerConfiguration(topics: topics, kafka: kafka, maxBatch: maxBatch)
        config.kafka["group.id"] = Self.group(topics)
        let logger = Logger(minimum: .error)
        workers = try (0..<count).map { _ in try Worker(configuration: config, engine: engine, logger: logger) }
        for worker in workers {
            let thread = Thread { [self] in
                do { try worker.run() } catch { errors.withLock { $0.append("\(error)") } }
                done.signal()
            }
            thread.name = "bench-worker"
            thread.start()
        }
    }

    /// The phase's consumer group.
    static func group(_ topics: Topics) -> String { "bench-quote-\(topics.addressChanged)" }

    var assignedPartitions: Int { workers.reduce(0) { $0 + $1.assignedPartitions.count } }
    var failure: String? { errors.withLock { $0.first } }

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
