import Synchronization

/// A count that several threads change (delivery reports, worker threads, rebalance handlers)
/// and others read: the bench's one counter type. Acquiring and releasing, so that a thread that
/// reads a count has seen what the threads that changed it did before.
final class BenchCounter: Sendable {
    private let value: Atomic<Int>
    init(_ start: Int = 0) { value = Atomic(start) }
    func add(_ n: Int = 1) { value.add(n, ordering: .acquiringAndReleasing) }
    var count: Int { value.load(ordering: .acquiring) }
}
