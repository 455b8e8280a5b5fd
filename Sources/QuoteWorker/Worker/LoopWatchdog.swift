import Foundation
import Synchronization

/// Notices a batch that takes longer than the consumer may go without polling. librdkafka 2.0.2
/// resets its `max.poll.interval.ms` timer on any poll, and its heartbeats go on from their own
/// thread, so a worker stuck inside one batch keeps its partitions while answering nothing.
/// This thread watches the time spent in the current batch and calls `onStall` once when it passes
/// the limit. Time spent inside a poll (rebalances, state restores) does not count: librdkafka is
/// serving the group then.
final class LoopWatchdog: Sendable {
    let limit: Duration
    private let onStall: @Sendable (Duration) -> Void
    /// Nanoseconds on the monotonic clock when the current batch began; 0 between batches.
    private let batchStarted = Atomic<Int64>(0)
    private let running = Atomic<Bool>(true)
    private let tripped = Atomic<Bool>(false)
    private let origin = ContinuousClock.now

    init(limit: Duration, onStall: @escaping @Sendable (Duration) -> Void) {
        self.limit = limit
        self.onStall = onStall
    }

    func start() {
        // Checks a few times per limit: a stall is noticed within about a quarter of the limit after it.
        let interval = min(max(limit / 4, .milliseconds(20)), .seconds(1))
        let thread = Thread { [self] in
            while running.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: Double(WorkerFailure.milliseconds(interval)) / 1000)
                check()
            }
        }
        thread.name = "shipquote-watchdog"
        thread.start()
    }

    func stop() { running.store(false, ordering: .releasing) }

    var hasTripped: Bool { tripped.load(ordering: .acquiring) }

    func batchBegan() { batchStarted.store(max(1, nanoseconds(ContinuousClock.now - origin)), ordering: .releasing) }
    func batchEnded() { batchStarted.store(0, ordering: .releasing) }

    private func check() {
        let started = batchStarted.load(ordering: .acquiring)
        guard started != 0 else { return }
        let elapsed = Duration.nanoseconds(nanoseconds(ContinuousClock.now - origin) - started)
        guard elapsed > limit, !tripped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        onStall(elapsed)
    }

    private func nanoseconds(_ d: Duration) -> Int64 {
        let c = d.components
        return c.seconds * 1_000_000_000 + c.attoseconds / 1_000_000_000
    }
}
