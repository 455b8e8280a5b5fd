import Kafka
import QuoteContract

/// The highest sequence taken per session, kept per input partition (all events of a session
/// land in one partition, so a partition's state moves with it on a rebalance, through the
/// compacted state topic).
///
/// Only the thread that polls the consumer touches it, so it needs no lock. It serves one input
/// topic, so partitions are told apart by number: hashing the topic's name as well cost a second
/// hash on each of the three lookups an answered event makes.
public struct SequenceGate: Sendable {
    public enum Verdict: Equatable, Sendable {
        case take
        case drop(DropReason)
    }

    /// What `admit` did with an event: took it (the session's new entry) or dropped it.
    public enum Admission: Equatable, Sendable {
        case taken(Entry)
        case dropped(DropReason)
    }

    /// What is remembered of one session, as the state topic holds it.
    public typealias Entry = SessionState

    private var sessions: [Int32: [SessionKey: Entry]] = [:]
    /// The session whose entry was stored last, when nothing has changed since: `isLatest` asked
    /// for it just after its quote (the contract's rule 2) is answered without hashing the id again.
    private var lastStored: (partition: Int32, session: SessionKey, sequence: Int64)?

    public init() {}

    /// What to do with the record at `offset` carrying `sequence` of `session`, without recording anything.
    public func verdict(session: SessionKey, sequence: Int64, offset: Int64, in partition: KafkaTopicPartition) -> Verdict {
        Self.drop(sequence: sequence, offset: offset, seen: sessions[partition.partition]?[session]).map { .drop($0) } ?? .take
    }

    /// Why a record is dropped against the session's entry `seen`: an older sequence is stale, the
    /// same sequence from another record a duplicate (the very record again, a replay, is taken).
    private static func drop(sequence: Int64, offset: Int64, seen: Entry?) -> DropReason? {
        guard let seen else { return nil }
        if sequence < seen.sequence { return .stale }
        if sequence == seen.sequence && offset != seen.sourceOffset { return .duplicate }
        return nil
    }

    /// Records that `sequence` is the newest the worker has taken for `session`.
    @discardableResult
    public mutating func take(session: SessionKey, sequence: Int64, offset: Int64, nowMs: Int64,
                              in partition: KafkaTopicPartition) -> Entry {
        let entry = Entry(sequence: sequence, sourceOffset: offset, lastSeenMs: nowMs)
        // Read and written in one access: the session id is hashed once.
        let kept = Self.update(&sessions[partition.partition, default: [:]][session]) { slot in
            if let old = slot, old.sequence > sequence { return old }
            slot = entry
            return entry
        }
        if kept == entry { lastStored = (partition.partition, session, sequence) }
        return kept
    }

    /// `verdict`, then a drop as `superseded` when `sequence` is below `newestKnown` (a newer event
    /// of the session is in the batch or the replay range), then `take`: an answered event's whole
    /// passage through the gate in one access to its session's entry (the id hashed once, not twice).
    public mutating func admit(session: SessionKey, sequence: Int64, offset: Int64, newestKnown: Int64, nowMs: Int64,
                               in partition: KafkaTopicPartition) -> Admission {
        let admitted = Self.update(&sessions[partition.partition, default: [:]][session]) { slot -> Admission in
            if let reason = Self.drop(sequence: sequence, offset: offset, seen: slot) { return .dropped(reason) }
            if sequence < newestKnown { return .dropped(.superseded) }
            let entry = Entry(sequence: sequence, sourceOffset: offset, lastSeenMs: nowMs)
            slot = entry
            return .taken(entry)
        }
        if case .taken = admitted { lastStored = (partition.partition, session, sequence) }
        return admitted
    }

    private static func update<Value, Result>(_ value: inout Value, _ body: (inout Value) -> Result) -> Result { body(&value) }

    /// Asked again just before a reply is published: is `sequence` still the session's newest?
    public func isLatest(session: SessionKey, sequence: Int64, in partition: KafkaTopicPartition) -> Bool {
        if let last = lastStored, last.sequence == sequence, last.partition == partition.partition, last.session == session {
            return true
        }
        return (sessions[partition.partition]?[session]?.sequence ?? 0) <= sequence
    }

    public func entry(session: SessionKey, in partition: KafkaTopicPartition) -> Entry? { sessions[partition.partition]?[session] }

    /// Sets a partition's state as read back from the state topic.
    public mutating func restore(_ partition: KafkaTopicPartition, _ entries: [SessionKey: Entry]) {
        lastStored = nil
        sessions[partition.partition] = entries
    }

    /// Drops a partition's state when the partition goes to another worker.
    public mutating func forget(_ partitions: [KafkaTopicPartition]) {
        lastStored = nil
        for p in partitions { sessions[p.partition] = nil }
    }

    /// Forgets sessions not seen since `cutoffMs` and says which (by input partition number), so
    /// their state can be deleted.
    public mutating func evictIdle(before cutoffMs: Int64) -> [(partition: Int32, session: SessionKey)] {
        var evicted: [(partition: Int32, session: SessionKey)] = []
        lastStored = nil
        for (partition, entries) in sessions {
            let idle = entries.filter { $0.value.lastSeenMs < cutoffMs }
            guard !idle.isEmpty else { continue }
            for key in idle.keys {
                sessions[partition]![key] = nil
                evicted.append((partition, key))
            }
        }
        return evicted
    }

    public var trackedSessions: Int { sessions.values.reduce(0) { $0 + $1.count } }
}
