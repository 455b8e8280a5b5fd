import Synchronization

/// A count that several threads add to (delivery reports, worker threads) and one reads.
final class BenchCounter: Sendable {
    private let value = Atomic<Int>(0)
    func add(_ n: Int = 1) { value.add(n, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
