import Kafka

/// Which fetched records are finished (reply delivered, dead letter written, or drop recorded),
/// so that offsets are committed only up to the first record that is not: a crash replays, never skips.
/// A value confined to the loop's thread: delivery reports reach it through the pipeline's inbox.
public struct OffsetTracker: Sendable {
    private struct PartitionProgress {
        /// Records in offset order with how many deliveries each still waits for.
        var pending: [(offset: Int64, outstanding: Int)] = []
        var head = 0
        /// The next offset to consume after everything finished so far (what a commit says).
        var finishedThrough: Int64?
        var committed: Int64?
    }

    private var partitions: [KafkaTopicPartition: PartitionProgress] = [:]

    public init() {}

    /// Notes a fetched record that must finish `deliveries` productions before it counts as done
    /// (0 for a record whose drop is recorded at once).
    ///
    /// The partition's progress is changed where it lies in the dictionary: taken out as a copy,
    /// its list of pending records was shared, and the append then copied the whole list (a
    /// backlog's thousands of entries) on every record.
    public mutating func register(_ tp: KafkaTopicPartition, offset: Int64, deliveries: Int) {
        Self.register(&partitions[tp, default: PartitionProgress()], offset: offset, deliveries: deliveries)
    }

    private static func register(_ p: inout PartitionProgress, offset: Int64, deliveries: Int) {
        p.pending.append((offset, deliveries))
        advance(&p)
    }

    /// One delivery of the record at `offset` has been reported.
    public mutating func finishDelivery(_ tp: KafkaTopicPartition, offset: Int64) {
        // Found once and changed where it lies; absent when the partition was revoked meanwhile.
        guard let i = partitions.index(forKey: tp) else { return }
        Self.finishDelivery(&partitions.values[i], offset: offset)
    }

    private static func finishDelivery(_ p: inout PartitionProgress, offset: Int64) {
        guard let i = index(of: offset, in: p) else { return }
        p.pending[i].outstanding -= 1
        advance(&p)
    }

    /// Where the record at `offset` waits, past the head. Records are registered in the order the
    /// partition gives them, so the list is in offset order and a binary search finds one: a
    /// backlog's batch registers its superseded records (nothing to deliver) between the few it
    /// answers, and a scan from the head stepped over all of them for every delivery report (2% of a
    /// saturated worker's loop). The scan from the head stays, first for the usual next record or
    /// two, and last for a list that would not be in order, so a report is never missed.
    private static func index(of offset: Int64, in p: PartitionProgress) -> Int? {
        let end = p.pending.count
        var i = p.head
        while i < end && i < p.head + 4 {
            if p.pending[i].offset == offset { return i }
            i += 1
        }
        var low = i, high = end
        while low < high {
            let middle = low + (high - low) / 2
            if p.pending[middle].offset < offset { low = middle + 1 } else { high = middle }
        }
        if low < end && p.pending[low].offset == offset { return low }
        while i < end {
            if p.pending[i].offset == offset { return i }
            i += 1
        }
        return nil
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
    public func committable(_ only: Set<KafkaTopicPartition>? = nil) -> [KafkaTopicPartition: Int64] {
        var result: [KafkaTopicPartition: Int64] = [:]
        for (tp, p) in partitions where only?.contains(tp) ?? true {
            if let f = p.finishedThrough, f != p.committed { result[tp] = f }
        }
        return result
    }

    public mutating func markCommitted(_ offsets: [KafkaTopicPartition: Int64]) {
        for (tp, offset) in offsets { partitions[tp]?.committed = offset }
    }

    /// Records still waiting for a delivery, over `only` these partitions (all when nil).
    public func unfinished(in only: Set<KafkaTopicPartition>? = nil) -> Int {
        partitions.reduce(0) { sum, entry in
            only?.contains(entry.key) ?? true ? sum + entry.value.pending.count - entry.value.head : sum
        }
    }

    public mutating func forget(_ gone: [KafkaTopicPartition]) {
        for tp in gone { partitions[tp] = nil }
    }
}
