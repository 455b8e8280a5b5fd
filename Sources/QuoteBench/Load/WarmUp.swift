import Foundation
import Kafka
import Synchronization

/// Before a phase's clock starts, every partition answers one warm-up event, so that no phase
/// measures a group's first fetch or a cold connection.
///
/// A warm-up event can miss its answer on a loaded machine: it may reach a `shipquote run` worker
/// past its time to live (30 s from `occurred_at` by default) and be dropped as expired, or its
/// produce may fail. So a partition not answered yet gets a fresh event (the next sequence, a new
/// `occurred_at`) every `resendEvery` seconds until `limit`; past that the error names the
/// partitions still waiting, the failed deliveries and what the workers report.
struct WarmUp {
    var limit: Double = 90
    var resendEvery: Double = 10

    /// `stopped`: why the workers can no longer answer (one has exited), or nil. `state`: what the
    /// workers report, for the error.
    func run(_ label: String, producer: KafkaProducer, topic: String, partitions: Int, merchant: String?, ledger: ReplyLedger,
             stopped: () -> String? = { nil }, state: () -> String = { "" }) throws {
        let failures = Mutex<[String]>([])
        let start = uptimeNanoseconds()
        let deadline = start + UInt64(limit * 1e9)
        var sent = 0
        var nextSend = start
        var waiting = Set(0..<partitions)
        while true {
            waiting.subtract(ledger.warmedUp)
            if waiting.isEmpty { return }
            if let why = stopped() { throw BenchError(description: "\(label): a worker stopped during the warm-up: \(why)") }
            let now = uptimeNanoseconds()
            if now >= deadline { break }
            if now >= nextSend {
                sent += 1
                for message in BenchEvents.warmup(topic: topic, partitions: waiting.sorted(), sequence: Int64(sent), merchant: merchant) {
                    try producer.send(message) { report in
                        if case .failed(let error) = report { failures.withLock { $0.append("\(error)") } }
                    }
                }
                nextSend = now + UInt64(resendEvery * 1e9)
            }
            usleep(10_000)
        }
        let failed = failures.withLock { $0 }
        let report = state()
        throw BenchError(description: "\(label): the warm-up events of partition(s) \(waiting.sorted()) got no reply within \(Int(limit)) s"
            + " (sent \(sent) time(s), every \(Int(resendEvery)) s"
            + (failed.isEmpty ? "" : "; \(failed.count) failed: \(Set(failed).sorted().joined(separator: "; "))") + ")"
            + (report.isEmpty ? "" : "; the workers: \(report)"))
    }
}
