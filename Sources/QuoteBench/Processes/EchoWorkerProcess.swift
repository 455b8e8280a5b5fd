import Dispatch
import Kafka
import QuoteWorker

/// `shipquote bench echo-worker`: one echo worker as a process of its own, for `bench --process`.
/// It logs as `shipquote run` does (JSON lines on stderr): its assignments, and its counts at most
/// every 250 ms when they changed, which is how the bench that started it follows it.
public enum EchoWorkerProcess {
    /// Runs until `stop` is signalled, then stops the worker (delivers, commits, leaves the group).
    public static func run(kafka: KafkaConfiguration, inputTopic: String, replyTopic: String, maxBatch: Int,
                           until stop: DispatchSemaphore) throws {
        let logger = Logger(minimum: .info)
        let worker = try EchoWorker(kafka: kafka, inputTopic: inputTopic, replyTopic: replyTopic, maxBatch: maxBatch) { event in
            switch event {
            case .assigned(let p): logger.info(WorkerLog.assigned, ["partitions": .text(p.map(\.description).joined(separator: ","))])
            case .revoked(let p): logger.info(WorkerLog.revoked, ["partitions": .text(p.map(\.description).joined(separator: ","))])
            }
        }
        try worker.start()
        var logged = (-1, -1)
        func logCounts() {
            let now = (worker.answered.count, worker.unreadable.count)
            guard now != logged else { return }
            logged = now
            logger.info(WorkerLog.echoCounts, ["answered": .int(now.0), "unreadable": .int(now.1)])
        }
        while stop.wait(timeout: .now() + .milliseconds(250)) == .timedOut { logCounts() }
        worker.stop()
        logCounts()
    }
}
