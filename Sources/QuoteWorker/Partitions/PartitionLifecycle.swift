import Kafka

/// Where each owned input partition stands, and which of them the consumer should fetch.
///
/// assigned → restoring → active → (revoked). A partition is paused the moment it is assigned and
/// its sequence state is restored a step per loop turn, so no rebalance callback waits for a
/// restore; only an active partition is fetched, and only while the fetch throttle allows.
/// Records that still reach the loop for a partition that is not active (fetched before the pause
/// took hold) are held, in order, and handed back once it is. If the consumer then fetches them
/// again (it resumes from the committed offset when the pause saved no position), the copies are
/// dropped: within one assignment a partition's records are admitted once, in offset order.
///
/// A value confined to the loop's thread.
public struct PartitionLifecycle: Sendable {
    public enum Phase: Equatable, Sendable {
        case restoring
        case active
    }

    public private(set) var phases: [KafkaTopicPartition: Phase] = [:]
    /// What the consumer was last told: the partitions it has paused.
    public private(set) var paused: Set<KafkaTopicPartition> = []
    private var held: [KafkaTopicPartition: [KafkaMessage]] = [:]
    /// The offset after the last record admitted or held, per partition.
    private var next: [KafkaTopicPartition: Int64] = [:]

    public init() {}

    public var owned: Set<KafkaTopicPartition> { Set(phases.keys) }
    public var restoring: [KafkaTopicPartition] { phases.filter { $0.value == .restoring }.map(\.key).sorted() }
    public func owns(_ tp: KafkaTopicPartition) -> Bool { phases[tp] != nil }

    /// New partitions: they start restoring, and the consumer pauses them at once.
    public mutating func assigned(_ partitions: [KafkaTopicPartition]) {
        for tp in partitions { phases[tp] = .restoring }
        paused.formUnion(partitions)
    }

    /// Their state is in the gate: they may be fetched. Returns the records held for them meanwhile.
    public mutating func restored(_ partitions: [KafkaTopicPartition]) -> [KafkaMessage] {
        var released: [KafkaMessage] = []
        for tp in partitions.sorted() where phases[tp] == .restoring {
            phases[tp] = .active
            released += held.removeValue(forKey: tp) ?? []
        }
        return released
    }

    /// Gone to another worker (or the worker is stopping): forgotten, held records too.
    public mutating func revoked(_ partitions: [KafkaTopicPartition]) {
        for tp in partitions {
            phases[tp] = nil
            held[tp] = nil
            next[tp] = nil
        }
        paused.subtract(partitions)
    }

    /// Splits a fetched batch: records of active partitions are returned to be processed, those of
    /// restoring partitions are held, those of partitions no longer owned are dropped (their next
    /// owner reads them from the last commit), and so are records seen already.
    public mutating func admit(_ batch: [KafkaMessage]) -> [KafkaMessage] {
        // Usually every record is admitted: the batch itself is returned then, and a new array
        // (a copy of each record) is made only from the first record left out.
        var ready: [KafkaMessage]?
        for i in batch.indices {
            let tp = batch[i].topicPartition
            var admitted = false
            if let phase = phases[tp], batch[i].offset >= next[tp] ?? .min {
                next[tp] = batch[i].offset + 1
                switch phase {
                case .active: admitted = true
                case .restoring: held[tp, default: []].append(batch[i])
                }
            }
            if admitted {
                ready?.append(batch[i])
            } else if ready == nil {
                ready = Array(batch[..<i])
                ready!.reserveCapacity(batch.count)
            }
        }
        return ready ?? batch
    }

    /// What to tell the consumer so that exactly the active partitions are fetched, none while
    /// `throttled`. Applying the answer is the caller's; it is recorded here as done.
    public mutating func reconcile(throttled: Bool) -> (pause: [KafkaTopicPartition], resume: [KafkaTopicPartition]) {
        var pause: [KafkaTopicPartition] = []
        var resume: [KafkaTopicPartition] = []
        for (tp, phase) in phases {
            let shouldPause = throttled || phase != .active
            if shouldPause && !paused.contains(tp) { pause.append(tp) }
            if !shouldPause && paused.contains(tp) { resume.append(tp) }
        }
        paused.formUnion(pause)
        paused.subtract(resume)
        return (pause.sorted(), resume.sorted())
    }
}
