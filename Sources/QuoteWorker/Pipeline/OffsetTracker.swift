import Kafka
import Synchronization

/// Which fetched records are finished (reply delivered, dead letter written, or drop recorded),
/// so that offsets are committed only up to the first record that is not: a crash replays, never skips.
/// Delivery reports finish records from the producer's thread, hence the lock.
public final class OffsetTracker: Sendable {
    private struct PartitionProgress {
        /// Records in offset order with how many deliveries each still waits for.
        var pending: [(offset: Int64, outstanding: Int)] = []
        var head = 0
        /// The next offset to consume after everything finished so far (what a commit says).
        var finishedThrough: Int64?
        var committed: Int64?
    }

    private let state = Mutex<[KafkaTopicPartition: PartitionProgress]>([:])

    public init() {}

    /// Notes a fetched record that must finish `deliveries` productions before it counts as done
    /// (0 for a record whose drop is recorded at once).
    public func register(_ tp: KafkaTopicPartition, offset: Int64, deliveries: Int) {
        state.withLock { all in
            var p = all[tp] ?? PartitionProgress()
            p.pending.append((offset, deliveries))
            Self.advance(&p)
            all[tp] = p
        }
    }

    /// One delivery of the record at `offset` has been reported.
    public func finishDelivery(_ tp: KafkaTopicPartition, offset: Int64) {
        state.withLock { all in
            guard var p = all[tp] else { return }  // the partition was revoked meanwhile
            if let i = p.pending[p.head...].firstIndex(where: { $0.offset == offset }) {
                p.pending[i].outstanding -= 1
                Self.advance(&p)
            }
            all[tp] = p
        }
    }

    private static func advance(_ p: inout PartitionProgress) {
        while p.head < p.pending.count && p.pending[p.head].outstanding <= 0 {
            p.finishedThrough = p.pending[p.head].offset + 1
            p.head += 1
        }
        // Reclaim the finished prefix now and then rather than on every record.
        if p.head > 1024 && p.head * 2 > p.pending.count {
            p.pending.removeFirst(p.head)
            p.head = 0
        }
    }

    /// Offsets finished since the last commit, per partition, for `partitions` (all when nil).
    public func committable(_ partitions: Set<KafkaTopicPartition>? = nil) -> [KafkaTopicPartition: Int64] {
        state.withLock { all in
            var result: [KafkaTopicPartition: Int64] = [:]
            for (tp, p) in all where partitions?.contains(tp) ?? true {
                if let f = p.finishedThrough, f != p.committed { result[tp] = f }
            }
            return result
        }
    }

    public func markCommitted(_ offsets: [KafkaTopicPartition: Int64]) {
        state.withLock { all in
            for (tp, offset) in offsets { all[tp]?.committed = offset }
        }
    }

    /// Records still waiting for a delivery, over all partitions.
    public var unfinished: Int {
        state.withLock { all in all.values.reduce(0) { $0 + ($1.pending.count - $1.head) } }
    }

    public func forget(_ partitions: [KafkaTopicPartition]) {
        state.withLock { all in for tp in partitions { all[tp] = nil } }
    }
}
