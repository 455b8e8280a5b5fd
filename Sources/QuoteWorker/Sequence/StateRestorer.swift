import Foundation
import Kafka

/// Reads partitions of the compacted state topic back into sequence-gate entries, so that a new
/// owner of a partition drops the same events the old owner would have. Reads by hand-assigned
/// partitions (no group), from the beginning to the high watermark seen when it starts.
final class StateRestorer {
    private let reader: KafkaConsumer
    private let topic: String

    struct RestoreTimedOut: Error, CustomStringConvertible {
        let description: String
    }

    init(kafka: KafkaConfiguration, topic: String, log: KafkaLogSink?) throws(KafkaError) {
        var config = kafka
        // librdkafka wants a group id even for a hand assignment; this one is never joined.
        config["group.id"] = "shipquote-state-reader"
        config["group.instance.id"] = nil
        config["enable.auto.commit"] = "false"  // whatever configuration it is given, it never commits
        config.setDefault("fetch.max.bytes", "52428800")
        reader = try KafkaConsumer(configuration: config, log: log) { _ in }
        self.topic = topic
    }

    func partitionCount() throws(KafkaError) -> Int { try reader.partitionCount(topic) }

    /// The entries of each partition, latest record per session winning, tombstones removing.
    func restore(_ partitions: [Int32], timeout: Duration) throws -> [Int32: [String: SequenceGate.Entry]] {
        var result: [Int32: [String: SequenceGate.Entry]] = [:]
        var end: [KafkaTopicPartition: Int64] = [:]
        var start: [KafkaTopicPartition: Int64] = [:]
        for p in partitions {
            result[p] = [:]
            let tp = KafkaTopicPartition(topic, p)
            let marks = try reader.watermarks(tp)
            if marks.high > marks.low {
                end[tp] = marks.high
                start[tp] = marks.low
            }
        }
        guard !end.isEmpty else { return result }
        try reader.assign(start)
        defer { reader.unassign() }
        let deadline = ContinuousClock.now + timeout
        var pending = Set(end.keys)
        while !pending.isEmpty {
            guard ContinuousClock.now < deadline else {
                throw RestoreTimedOut(description: "restoring \(topic) partitions \(pending.map(\.partition).sorted()) took longer than \(timeout)")
            }
            for message in reader.poll(maxMessages: 10_000, timeoutMs: 20) where message.offset < end[message.topicPartition] ?? 0 {
                guard let key = message.key else { continue }
                let session = String(decoding: key, as: UTF8.self)
                if message.isTombstone {
                    result[message.partition]![session] = nil
                } else if let entry = StateRecord.decode(message.value) {
                    result[message.partition]![session] = entry
                }
            }
            // Compaction leaves gaps, so the position (not the last offset seen) says when a partition is read.
            for (tp, position) in reader.positions(Array(pending)) where position >= end[tp]! {
                pending.remove(tp)
            }
        }
        return result
    }

    func close() { reader.close() }
}
