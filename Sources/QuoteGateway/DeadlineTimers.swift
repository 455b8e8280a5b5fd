import Synchronization

/// The timers that end waits at their deadline. A wait answered in time cancels its timer, and the
/// count of timers still running shows that none is left behind.
final class DeadlineTimers: Sendable {
    private let running = Atomic<Int>(0)

    /// Timers started and not yet finished (fired or cancelled).
    var outstanding: Int { running.load(ordering: .acquiring) }

    /// Calls `expire` at `deadline` unless the returned task is cancelled first.
    func start(until deadline: ContinuousClock.Instant, _ expire: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        running.add(1, ordering: .acquiringAndReleasing)
        return Task { [self] in
            defer { running.subtract(1, ordering: .acquiringAndReleasing) }
            do { try await Task.sleep(until: deadline, clock: .continuous) } catch { return }
            expire()
        }
    }
}
