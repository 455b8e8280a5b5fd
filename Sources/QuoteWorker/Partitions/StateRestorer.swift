import Foundation
import Kafka
import QuoteContract

/// Reads partitions of the compacted state topic back into sequence-gate entries, so that a new
/// owner of a partition drops the same events the old owner would have. Reads by hand-assigned
/// partitions (no group), from the beginning to the high watermark seen when the restore begins,
/// a bounded step at a time so that the worker's loop goes on turning meanwhile.
///
/// Confined to the loop's thread.
final class StateRestorer {
    /// A restore that did not finish within its time; the worker stops rather than answer without state.
    struct RestoreTimedOut: Error, CustomStringConvertible {
        let description: String
    }

    private let reader: KafkaConsumer
    private let topic: String
    private var job: Job?

    private struct Job {
        var entries: [Int32: [String: SequenceGate.Entry]]
        var end: [KafkaTopicPartition: Int64]
        var pending: Set<KafkaTopicPartition>
        let deadline: ContinuousClock.Instant
        let started: ContinuousClock.Instant
    }

    init(kafka: KafkaConfiguration, topic: String, log: KafkaLogSink?) throws(KafkaError) {
        var config = kafka
        // librdkafka wants a group id even for a hand assignment; this one is never joined.
        config["group.id"] = "shipquote-state-reader"
        config["group.instance.id"] = nil
        config.setDefault("fetch.max.bytes", "52428800")
        reader = try KafkaConsumer(configuration: config, log: log) { _ in }
        self.topic = topic
    }

    func partitionCount() throws(KafkaError) -> Int { try reader.partitionCount(topic) }

    /// Starts reading these partitions' state (replacing any restore under way: with an eager
    /// assignor every assignment follows a revocation of everything).
    func begin(_ partitions: [Int32], timeout: Duration) throws(KafkaError) {
        cancel()
        var end: [KafkaTopicPartition: Int64] = [:]
        var start: [KafkaTopicPartition: Int64] = [:]
        for p in partitions {
            let tp = KafkaTopicPartition(topic, p)
            let marks = try reader.watermarks(tp)
            if marks.high > marks.low {
                end[tp] = marks.high
                start[tp] = marks.low
            }
        }
        if !start.isEmpty { try reader.assign(start) }
        let now = ContinuousClock.now
        job = Job(entries: Dictionary(uniqueKeysWithValues: partitions.map { ($0, [:]) }), end: end,
                  pending: Set(end.keys), deadline: now + timeout, started: now)
    }

    /// Reads what is already fetched, up to `maxRecords`, waiting at most `waitMs` for the first.
    /// Returns each partition's sessions (latest record per session winning, tombstones removing)
    /// once all are read, nil while reading goes on.
    func step(maxRecords: Int = 10_000, waitMs: Int32 = 0) throws(RestoreTimedOut) -> (entries: [Int32: [String: SequenceGate.Entry]], took: Duration)? {
        guard var job else { return nil }
        if !job.pending.isEmpty {
            guard ContinuousClock.now < job.deadline else {
                let left = job.pending.map(\.partition).sorted()
                cancel()
                throw RestoreTimedOut(description: "restoring \(topic) partitions \(left) took longer than the restore timeout")
            }
            for message in reader.poll(maxMessages: maxRecords, timeoutMs: waitMs) where message.offset < job.end[message.topicPartition] ?? 0 {
                guard let key = message.key else { continue }
                let session = String(decoding: key, as: UTF8.self)
                if message.isTombstone {
                    job.entries[message.partition]?[session] = nil
                } else if let entry = SessionState.decode(message.value) {
                    job.entries[message.partition]?[session] = entry
                }
            }
            // Compaction leaves gaps, so the position (not the last offset seen) says when a partition is read.
            for (tp, position) in reader.positions(Array(job.pending)) where position >= job.end[tp]! {
                job.pending.remove(tp)
            }
        }
        guard job.pending.isEmpty else {
            self.job = job
            return nil
        }
        cancel()
        return (job.entries, ContinuousClock.now - job.started)
    }

    /// Abandons the restore under way (its partitions were revoked).
    func cancel() {
        if job?.end.isEmpty == false { reader.unassign() }
        job = nil
    }

    func close() { reader.close() }
}
