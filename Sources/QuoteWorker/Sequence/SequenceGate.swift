import Kafka

/// The highest sequence taken per session, kept per input partition (all events of a session
/// land in one partition, so a partition's state moves with it on a rebalance).
///
/// Only the thread that polls the consumer touches it, so it needs no lock.
public struct SequenceGate: Sendable {
    public enum Verdict: Equatable, Sendable {
        case take
        case drop(DropReason)
    }

    private var highest: [TopicPartition: [String: Int64]] = [:]

    public init() {}

    /// What to do with `sequence` of `session`, without recording anything.
    public func verdict(session: String, sequence: Int64, in partition: TopicPartition) -> Verdict {
        guard let seen = highest[partition]?[session] else { return .take }
        if sequence < seen { return .drop(.stale) }
        if sequence == seen { return .drop(.duplicate) }
        return .take
    }

    /// Records that `sequence` is the newest the worker has taken for `session`.
    public mutating func take(session: String, sequence: Int64, in partition: TopicPartition) {
        let previous = highest[partition]?[session] ?? 0
        if sequence > previous { highest[partition, default: [:]][session] = sequence }
    }

    /// Asked again just before a reply is published: is `sequence` still the session's newest?
    public func isLatest(session: String, sequence: Int64, in partition: TopicPartition) -> Bool {
        (highest[partition]?[session] ?? 0) <= sequence
    }

    public func highestSequence(session: String, in partition: TopicPartition) -> Int64? {
        highest[partition]?[session]
    }

    /// Drops a partition's state when the partition goes to another worker.
    public mutating func forget(_ partitions: [TopicPartition]) {
        for p in partitions { highest[p] = nil }
    }

    public var trackedSessions: Int { highest.values.reduce(0) { $0 + $1.count } }
}
