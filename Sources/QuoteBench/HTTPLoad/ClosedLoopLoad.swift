import Foundation
import Synchronization

/// A bounded closed loop: `connections` threads, each making one call at a time (a blocking
/// `call(index)` that returns an HTTP status), taking the next request of `count` in order.
/// At a fixed rate request i is not sent before `start + i / rate`; saturated, as soon as a thread
/// is free. No request starts after `durationLimit` seconds; the calls under way then finish.
/// Latency is per call: from just before it is made to its answer.
struct ClosedLoopLoad {
    let count: Int
    let connections: Int
    let rate: BenchSettings.Rate
    let durationLimit: Double

    struct Call: Sendable {
        /// The request's index in the plan.
        var index: Int
        /// HTTP status; 0 when no response came.
        var status: Int
        var seconds: Double
        /// When the call was made, in seconds from the start of the load.
        var madeAt: Double
    }

    struct Outcome: Sendable {
        var calls: [Call] = []
        var startedAt: UInt64 = 0
        /// When the last answer came.
        var finishedAt: UInt64 = 0
        /// The furthest a call started behind its schedule (fixed rates), in seconds.
        var worstLag: Double = 0
    }

    /// `makeCaller(thread)` runs on that thread, once, and returns its call function (an HTTP
    /// connection of its own, say); the function is dropped when the thread ends.
    func run(makeCaller: @escaping @Sendable (Int) -> (Int) -> Int) -> Outcome {
        let shared = Shared()
        let done = DispatchSemaphore(value: 0)
        let start = uptimeNanoseconds()
        let limit = start + UInt64(durationLimit * 1e9)
        let interval: Double? = if case .fixed(let n) = rate { 1e9 / Double(n) } else { nil }
        let count = self.count
        for thread in 0..<connections {
            let worker = Thread {
                let call = makeCaller(thread)
                var mine: [Call] = []
                var worstLag: Double = 0
                while true {
                    let index = shared.next.add(1, ordering: .relaxed).oldValue
                    if index >= count { break }
                    var now = uptimeNanoseconds()
                    if now >= limit { break }
                    if let interval {
                        let due = start + UInt64(Double(index) * interval)
                        if due > now + 50_000 { usleep(UInt32((due - now) / 1_000)); now = uptimeNanoseconds() }
                        if now > due { worstLag = max(worstLag, Double(now - due) / 1e9) }
                    }
                    let status = call(index)
                    mine.append(Call(index: index, status: status, seconds: Double(uptimeNanoseconds() - now) / 1e9, madeAt: Double(now - start) / 1e9))
                }
                let ended = uptimeNanoseconds()
                shared.collected.withLock { o in
                    o.calls += mine
                    o.worstLag = max(o.worstLag, worstLag)
                    if !mine.isEmpty { o.finishedAt = max(o.finishedAt, ended) }
                }
                done.signal()
            }
            worker.name = "bench-caller-\(thread)"
            worker.start()
        }
        for _ in 0..<connections { done.wait() }
        var outcome = shared.collected.withLock { $0 }
        outcome.startedAt = start
        outcome.calls.sort { $0.index < $1.index }
        return outcome
    }

    /// What the threads share: the next request to take, and what they made of theirs.
    private final class Shared: Sendable {
        let next = Atomic<Int>(0)
        let collected = Mutex(Outcome())
    }
}
