import Kafka

/// Where each owned input partition stands, and which of them the consumer should fetch.
///
/// assigned → restoring → active → (revoked). A new partition's sequence state is restored a step
/// per loop turn, so no rebalance callback waits for a restore; only an active partition's records
/// are processed, and only while the fetch throttle allows.
///
/// A partition is paused or resumed only once a record of it has arrived in this assignment.
/// librdkafka 2.0.2 starts a group partition's fetcher asynchronously (after it has read the
/// committed offset), and a pause or resume whose version barrier is taken while that start is
/// under way makes the start outdated: it is dropped and the partition is never fetched, with no
/// error (librdkafka issues #2190 and #5591). A record proves the fetcher started, so after it a
/// pause or resume is safe. Records that reach the loop for a partition that is not active are
/// held, in order, and handed back once it is; if the consumer then fetches them again (a pause
/// drops what was queued, and a resume fetches again from the last record handed out), the copies
/// are dropped: within one assignment a partition's records are admitted once, in offset order.
/// A revoked partition is resumed: librdkafka keeps an application's pause across assignments, and
/// a later assignment of it must start unpaused.
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
    /// The offset after the last record admitted or held, per partition; set once a record of it
    /// has arrived in this assignment, which is what makes a pause or resume of it safe.
    private var next: [KafkaTopicPartition: Int64] = [:]
    /// Something `reconcile` reads has changed since it last ran (a phase, a first record, a
    /// revoke). It runs every loop turn, and when nothing has changed its answer is nothing to do:
    /// without this it hashed every owned partition three times a turn, once an event at low rates.
    private var reconcileDue = false
    private var lastThrottled = false

    public init() {}

    public var owned: Set<KafkaTopicPartition> { Set(phases.keys) }
    public var restoring: [KafkaTopicPartition] { phases.filter { $0.value == .restoring }.map(\.key).sorted() }
    /// Whether any partition is restoring, asked every loop turn: no list made, nothing hashed.
    public var isRestoring: Bool { phases.values.contains(.restoring) }
    public func owns(_ tp: KafkaTopicPartition) -> Bool { phases[tp] != nil }

    /// New partitions: they start restoring, unpaused (see above); the first record of one that
    /// arrives before it is restored gets it paused.
    /// A revoke always comes first with the eager assignors the worker allows; should one not, the
    /// partition's records still start afresh (its pause, if any, is kept to be resumed).
    public mutating func assigned(_ partitions: [KafkaTopicPartition]) {
        for tp in partitions {
            phases[tp] = .restoring
            held[tp] = nil
            next[tp] = nil
        }
        reconcileDue = true
    }

    /// Their state is in the gate: they may be fetched. Returns the records held for them meanwhile.
    public mutating func restored(_ partitions: [KafkaTopicPartition]) -> [KafkaMessage] {
        var released: [KafkaMessage] = []
        for tp in partitions.sorted() where phases[tp] == .restoring {
            phases[tp] = .active
            released += held.removeValue(forKey: tp) ?? []
        }
        reconcileDue = true
        return released
    }

    /// Gone to another worker (or the worker is stopping): forgotten, held records too. Returns
    /// those of them whose records had arrived, to be resumed before they leave the assignment:
    /// librdkafka would keep a pause into a later assignment of them, and this also clears a pause
    /// whose resume librdkafka dropped as outdated (a resume racing the pause it takes itself when
    /// a rebalance begins). The others were never paused by this worker.
    public mutating func revoked(_ partitions: [KafkaTopicPartition]) -> [KafkaTopicPartition] {
        let fetched = partitions.filter { next[$0] != nil }.sorted()
        for tp in partitions {
            phases[tp] = nil
            held[tp] = nil
            next[tp] = nil
        }
        paused.subtract(partitions)
        reconcileDue = true
        return fetched
    }

    /// Splits a fetched batch: records of active partitions are returned to be processed, those of
    /// restoring partitions are held, those of partitions no longer owned are dropped (their next
    /// owner reads them from the last commit), and so are records seen already.
    public mutating func admit(_ batch: [KafkaMessage]) -> [KafkaMessage] {
        // Usually every record is admitted: the batch itself is returned then, and a new array
        // (a copy of each record) is made only from the first record left out.
        var ready: [KafkaMessage]?
        // A partition's records come in runs: its phase and next offset are looked up once a run
        // and its next offset written back once (three hashes a record were most of this).
        var run: (tp: KafkaTopicPartition, phase: Phase?, next: Int64?, advanced: Bool)?
        for i in batch.indices {
            if run?.tp != batch[i].topicPartition {
                if let done = run, done.advanced { next[done.tp] = done.next }
                let tp = batch[i].topicPartition
                run = (tp, phases[tp], next[tp], false)
            }
            var admitted = false
            if let phase = run!.phase, batch[i].offset >= run!.next ?? .min {
                if run!.next == nil { reconcileDue = true }   // its first record: a pause or resume is now safe
                run!.next = batch[i].offset + 1
                run!.advanced = true
                switch phase {
                case .active: admitted = true
                case .restoring: held[run!.tp, default: []].append(batch[i])
                }
            }
            if admitted {
                ready?.append(batch[i])
            } else if ready == nil {
                ready = Array(batch[..<i])
                ready!.reserveCapacity(batch.count)
            }
        }
        if let done = run, done.advanced { next[done.tp] = done.next }
        return ready ?? batch
    }

    /// What to tell the consumer so that exactly the active partitions are fetched, none while
    /// `throttled`, leaving alone a partition none of whose records has arrived yet (see above).
    /// Applying the answer is the caller's; it is recorded here as done.
    public mutating func reconcile(throttled: Bool) -> (pause: [KafkaTopicPartition], resume: [KafkaTopicPartition]) {
        guard reconcileDue || throttled != lastThrottled else { return ([], []) }
        reconcileDue = false
        lastThrottled = throttled
        var pause: [KafkaTopicPartition] = []
        var resume: [KafkaTopicPartition] = []
        for (tp, phase) in phases {
            let shouldPause = throttled || phase != .active
            if shouldPause && !paused.contains(tp) && next[tp] != nil { pause.append(tp) }
            if !shouldPause && paused.contains(tp) { resume.append(tp) }
        }
        paused.formUnion(pause)
        paused.subtract(resume)
        return (pause.sorted(), resume.sorted())
    }
}
