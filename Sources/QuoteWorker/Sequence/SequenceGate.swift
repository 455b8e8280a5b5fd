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

    /// What is remembered of one session, as the state topic holds it.
    public typealias Entry = SessionState

    private var sessions: [Int32: [String: Entry]] = [:]

    public init() {}

    /// What to do with the record at `offset` carrying `sequence` of `session`, without recording anything.
    public func verdict(session: String, sequence: Int64, offset: Int64, in partition: KafkaTopicPartition) -> Verdict {
        guard let seen = sessions[partition.partition]?[session] else { return .take }
        if sequence < seen.sequence { return .drop(.stale) }
        if sequence == seen.sequence { return offset == seen.sourceOffset ? .take : .drop(.duplicate) }
        return .take
    }

    /// Records that `sequence` is the newest the worker has taken for `session`.
    @discardableResult
    public mutating func take(session: String, sequence: Int64, offset: Int64, nowMs: Int64,
                              in partition: KafkaTopicPartition) -> Entry {
        let entry = Entry(sequence: sequence, sourceOffset: offset, lastSeenMs: nowMs)
        // Read and written in one access: the session id is hashed once.
        return Self.update(&sessions[partition.partition, default: [:]][session]) { slot in
            if let old = slot, old.sequence > sequence { return old }
            slot = entry
            return entry
        }
    }

    private static func update<Value, Result>(_ value: inout Value, _ body: (inout Value) -> Result) -> Result { body(&value) }

    /// Asked again just before a reply is published: is `sequence` still the session's newest?
    public func isLatest(session: String, sequence: Int64, in partition: KafkaTopicPartition) -> Bool {
        (sessions[partition.partition]?[session]?.sequence ?? 0) <= sequence
    }

    public func entry(session: String, in partition: KafkaTopicPartition) -> Entry? { sessions[partition.partition]?[session] }

    /// Sets a partition's state as read back from the state topic.
    public mutating func restore(_ partition: KafkaTopicPartition, _ entries: [String: Entry]) {
        sessions[partition.partition] = entries
    }

    /// Drops a partition's state when the partition goes to another worker.
    public mutating func forget(_ partitions: [KafkaTopicPartition]) {
        for p in partitions { sessions[p.partition] = nil }
    }

    /// Forgets sessions not seen since `cutoffMs` and says which (by input partition number), so
    /// their state can be deleted.
    public mutating func evictIdle(before cutoffMs: Int64) -> [(partition: Int32, session: String)] {
        var evicted: [(partition: Int32, session: String)] = []
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
