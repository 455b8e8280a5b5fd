import Foundation
import Kafka
import QuoteContract

/// Reads what a new owner of input partitions must know before it answers anything, a bounded
/// step at a time so that the worker's loop goes on turning meanwhile:
/// - each session's state, from the compacted state partition of the same number, from its
///   beginning to the high watermark seen when the read begins (latest record per session wins,
///   tombstones remove);
/// - the replay range: the input partition from the group's committed offset to its high
///   watermark, read for sessions and sequences only (`ReplayRange`).
///
/// One consumer with hand-assigned partitions (no group). Confined to the loop's thread.
final class TakeoverReader {
    /// A read that did not finish within its time; the worker stops rather than answer without state.
    struct TimedOut: Error, CustomStringConvertible {
        let description: String
    }

    struct Takeover {
        var sessions: [Int32: [SessionKey: SessionState]]
        var replay: [Int32: ReplayRange]
        var took: Duration
    }

    private let reader: KafkaConsumer
    private let stateTopic: String
    private let inputTopic: String
    private var job: Job?

    private struct Job {
        var takeover: Takeover
        var end: [KafkaTopicPartition: Int64]
        var pending: Set<KafkaTopicPartition>
        let deadline: ContinuousClock.Instant
        let started: ContinuousClock.Instant
    }

    init(kafka: KafkaConfiguration, stateTopic: String, inputTopic: String, log: KafkaLogSink?) throws(KafkaError) {
        var config = kafka
        // librdkafka wants a group id even for a hand assignment; this one is never joined.
        config["group.id"] = "shipquote-takeover-reader"
        config["group.instance.id"] = nil
        config.setDefault("fetch.max.bytes", "52428800")
        reader = try KafkaConsumer(configuration: config, log: log) { _ in }
        self.stateTopic = stateTopic
        self.inputTopic = inputTopic
    }

    func partitionCount() throws(KafkaError) -> Int { try reader.partitionCount(stateTopic) }

    /// Starts reading these partitions (replacing any read under way: with an eager assignor every
    /// assignment follows a revocation of everything). `committed`: the group's next offset per
    /// input partition, absent where nothing is committed (the range then starts at the beginning).
    func begin(_ partitions: [Int32], committed: [Int32: Int64], timeout: Duration) throws(KafkaError) {
        cancel()
        var end: [KafkaTopicPartition: Int64] = [:]
        var start: [KafkaTopicPartition: Int64] = [:]
        var replay: [Int32: ReplayRange] = [:]
        for p in partitions {
            let state = KafkaTopicPartition(stateTopic, p)
            let marks = try reader.watermarks(state)
            if marks.high > marks.low { (start[state], end[state]) = (marks.low, marks.high) }
            let input = KafkaTopicPartition(inputTopic, p)
            let inputMarks = try reader.watermarks(input)
            let from = max(committed[p] ?? inputMarks.low, inputMarks.low)
            replay[p] = ReplayRange(end: inputMarks.high)
            if inputMarks.high > from { (start[input], end[input]) = (from, inputMarks.high) }
        }
        if !start.isEmpty { try reader.assign(start) }
        let now = ContinuousClock.now
        let sessions = Dictionary(uniqueKeysWithValues: partitions.map { ($0, [SessionKey: SessionState]()) })
        job = Job(takeover: Takeover(sessions: sessions, replay: replay, took: .zero), end: end,
                  pending: Set(end.keys), deadline: now + timeout, started: now)
    }

    /// Reads what is already fetched, up to `maxRecords`, waiting at most `waitMs` for the first.
    /// Returns the takeover once every partition is read, nil while reading goes on.
    func step(maxRecords: Int = 10_000, waitMs: Int32 = 0) throws(TimedOut) -> Takeover? {
        guard var job else { return nil }
        if !job.pending.isEmpty {
            guard ContinuousClock.now < job.deadline else {
                let left = job.pending.map(\.description).sorted()
                cancel()
                throw TimedOut(description: "reading \(left) for a takeover took longer than the restore timeout")
            }
            for message in reader.poll(maxMessages: maxRecords, timeoutMs: waitMs) where message.offset < job.end[message.topicPartition] ?? 0 {
                if message.topic == inputTopic {
                    job.takeover.replay[message.partition]?.note(message)
                    continue
                }
                guard let key = message.key else { continue }
                let session = SessionKey(utf8: key)
                if message.isTombstone {
                    job.takeover.sessions[message.partition]?[session] = nil
                } else if let entry = SessionState.decode(message.value) {
                    job.takeover.sessions[message.partition]?[session] = entry
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
        job.takeover.took = ContinuousClock.now - job.started
        return job.takeover
    }

    /// Abandons the read under way (its partitions were revoked).
    func cancel() {
        if job?.end.isEmpty == false { reader.unassign() }
        job = nil
    }

    func close() { reader.close() }
}
