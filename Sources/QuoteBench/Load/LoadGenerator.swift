import Foundation
import Kafka
import Synchronization

/// Produces a plan's events, pre-encoded, on its own thread: as fast as the producer takes them,
/// or on a fixed schedule. Stops at the end of the plan or after `duration`, whichever is first.
/// Each event is stamped in the ledger just before it is handed to the producer.
final class LoadGenerator: Sendable {
    private let producer: KafkaProducer
    private let topic: String
    private let keys: [[UInt8]]
    private let payloads: [[UInt8]]
    private let plan: LoadPlan
    private let ledger: ReplyLedger?
    private let rate: BenchSettings.Rate
    private let duration: Double
    private let finished = DispatchSemaphore(value: 0)

    let produced = BenchCounter()
    let delivered = BenchCounter()
    let failed = BenchCounter()
    /// Written by the generator's thread, read by the phase's.
    private let timing = Mutex(Timing())

    private struct Timing {
        var startedAt: UInt64 = 0
        var stoppedAt: UInt64 = 0
        var worstLag: Double = 0
    }

    /// When the first event was handed to the producer (uptime nanoseconds); 0 before.
    var startedAt: UInt64 { timing.withLock { $0.startedAt } }
    /// When the last one was; 0 while producing.
    var stoppedAt: UInt64 { timing.withLock { $0.stoppedAt } }
    /// The furthest the generator fell behind its schedule (fixed rates only), in seconds; known once stopped.
    var worstLag: Double { timing.withLock { $0.worstLag } }

    init(producer: KafkaProducer, topic: String, plan: LoadPlan, payloads: [[UInt8]], ledger: ReplyLedger?,
         rate: BenchSettings.Rate, duration: Double) {
        self.producer = producer
        self.topic = topic
        self.plan = plan
        self.payloads = payloads
        self.ledger = ledger
        self.rate = rate
        self.duration = duration
        keys = (0..<plan.sessions).map { Array(BenchEvents.sessionID(Int32($0)).utf8) }
    }

    func start() {
        let thread = Thread { [self] in
            produceAll()
            finished.signal()
        }
        thread.name = "bench-generator"
        thread.start()
    }

    func awaitProduced() { finished.wait() }

    /// Events per second handed to the producer while producing.
    var produceRate: Double {
        let (startedAt, stoppedAt) = timing.withLock { ($0.startedAt, $0.stoppedAt) }
        let seconds = Double(stoppedAt &- startedAt) / 1e9
        return seconds > 0 ? Double(produced.count) / seconds : 0
    }

    private func produceAll() {
        let start = uptimeNanoseconds()
        timing.withLock { $0.startedAt = start }
        var worstLag: Double = 0
        let limit = start + UInt64(duration * 1e9)
        let interval: Double? = if case .fixed(let n) = rate { 1e9 / Double(n) } else { nil }
        let delivered = self.delivered, failed = self.failed
        let completion: @Sendable (KafkaDeliveryReport) -> Void = { report in
            if case .failed = report { failed.add() } else { delivered.add() }
        }
        for (i, event) in plan.events.enumerated() {
            var now = uptimeNanoseconds()
            if now >= limit { break }
            if let interval {
                let due = start + UInt64(Double(i) * interval)
                // Sleep only when well ahead: sleeping per event costs more than it keeps the pace.
                if due > now + 200_000 { usleep(UInt32((due - now) / 1_000)); now = uptimeNanoseconds() }
                if now > due { worstLag = max(worstLag, Double(now - due) / 1e9) }
            }
            ledger?.sent(i, at: now)
            do {
                try producer.send(KafkaOutgoingMessage(topic: topic, key: keys[Int(event.session)], value: payloads[i]), completion: completion)
                produced.add()
            } catch {
                failed.add()
            }
        }
        let stopped = uptimeNanoseconds()
        timing.withLock {
            $0.worstLag = worstLag
            $0.stoppedAt = stopped
        }
    }
}
