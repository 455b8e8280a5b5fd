import Foundation
import Kafka
import KafkaTesting
import QuoteContract
import QuoteWorker
import ShippingRules
import Synchronization

/// `shipquote bench replay`: what a takeover costs before the first answer. A partition holds
/// `events` events that no worker has committed (the replay range a crash leaves behind); a worker
/// joins, reads the range and the state back, and the bench reports the time its log gives for
/// that read, next to the CPU of reading each record on one thread without Kafka.
public enum ReplayBench {
    public struct Settings: Sendable {
        public var events = 100_000
        public var sessions = 1_000
        public var rulesPath = "examples/rules/us-acme.yaml"
        public init() {}
    }

    public static func run(_ settings: Settings, line: (String) -> Void) throws {
        let rules = try RuleLibrary.load(path: settings.rulesPath)
        let plan = LoadPlan(sessions: settings.sessions, events: settings.events, burstFraction: 0, seed: 7)
        let records = plan.events.map { planned in
            KafkaOutgoingMessage(topic: Topics.defaultAddressChanged, key: Array(BenchEvents.sessionID(planned.session).utf8),
                                 value: BenchEvents.encode(planned, merchant: rules.ruleSets.count == 1 ? nil : rules.ruleSets.first?.merchant, occurredAt: Date()), partition: 0)
        }
        line("replay  \(records.count) events over \(settings.sessions) sessions in one partition (\(records[0].value.count) bytes each)")

        // The scan alone: each record read as the replay range reads it.
        let messages = records.enumerated().map { i, r in
            KafkaMessage(topic: r.topic, partition: 0, offset: Int64(i), key: r.key, value: r.value)
        }
        var range = ReplayRange(end: Int64(messages.count))
        let started = uptimeNanoseconds()
        for m in messages { range.note(m) }
        let scan = Double(uptimeNanoseconds() - started) / 1e9
        line(String(format: "scan    %.3f s on one thread, %.2f µs a record, %d sessions' newest found",
                    scan, scan * 1e6 / Double(messages.count), range.newest.count))

        // Through Kafka: the embedded broker keeps about 5 MiB a partition, so the range is sent in
        // compressed batches (a real broker keeps what its retention says).
        let cluster = try EmbeddedKafkaCluster(brokers: 1, topics: TopicLayout.specs(.defaults, partitions: 1))
        let producer = try KafkaProducer(configuration: KafkaConfiguration([
            "bootstrap.servers": cluster.bootstrapServers, "compression.type": "lz4", "linger.ms": "20",
            "batch.num.messages": "10000"]))
        let delivered = BenchCounter()
        for record in records { try producer.send(record) { if case .delivered = $0 { delivered.add() } } }
        _ = producer.flush(timeoutMs: 60_000)
        producer.close(timeoutMs: 5_000)
        guard delivered.count == records.count else {
            throw BenchSettingsError("bench replay: only \(delivered.count) of \(records.count) events reached the broker")
        }
        let restored = Mutex<String?>(nil)
        let logger = Logger(minimum: .info) { text in
            if text.contains("\"sequence state restored\"") { restored.withLock { $0 = text } }
        }
        var config = WorkerConfiguration(kafka: KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers, "fetch.wait.max.ms": "5"]))
        config.defaultTimeToLive = nil
        let worker = try Worker(configuration: config, engine: rules, logger: logger)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            try? worker.run()
            finished.signal()
        }.start()
        defer {
            worker.stop()
            finished.wait()
        }
        let deadline = uptimeNanoseconds() + 120_000_000_000
        while restored.withLock({ $0 }) == nil && uptimeNanoseconds() < deadline { usleep(20_000) }
        guard let logLine = restored.withLock({ $0 }) else { throw BenchSettingsError("bench replay: no takeover within 120 s") }
        line("kafka   the worker's takeover read: \(field("replayed_records", in: logLine)) records, \(field("sessions", in: logLine)) sessions of state, "
             + "\(field("milliseconds", in: logLine)) ms (fetch.wait.max.ms=5, the worker's defaults otherwise)")
    }

    /// A number field of one JSON log line.
    static func field(_ name: String, in line: String) -> String {
        guard let start = line.range(of: "\"\(name)\":") else { return "?" }
        return String(line[start.upperBound...].prefix { $0.isNumber })
    }
}
