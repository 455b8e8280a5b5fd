import CRdKafka

/// Conversions to and from `rd_kafka_topic_partition_list_t`. Lists made here are owned by the
/// caller, who destroys them with `rd_kafka_topic_partition_list_destroy`.
enum PartitionList {
    static func make(_ offsets: [(KafkaTopicPartition, Int64)]) -> UnsafeMutablePointer<rd_kafka_topic_partition_list_t> {
        let list = rd_kafka_topic_partition_list_new(Int32(offsets.count))!
        for (tp, offset) in offsets {
            let element = rd_kafka_topic_partition_list_add(list, tp.topic, tp.partition)!
            element.pointee.offset = offset
        }
        return list
    }

    static func make(_ partitions: [KafkaTopicPartition]) -> UnsafeMutablePointer<rd_kafka_topic_partition_list_t> {
        make(partitions.map { ($0, Int64(RD_KAFKA_OFFSET_INVALID)) })
    }

    static func read(_ list: UnsafePointer<rd_kafka_topic_partition_list_t>?) -> [(KafkaTopicPartition, Int64, rd_kafka_resp_err_t)] {
        guard let list else { return [] }
        var result: [(KafkaTopicPartition, Int64, rd_kafka_resp_err_t)] = []
        result.reserveCapacity(Int(list.pointee.cnt))
        for i in 0..<Int(list.pointee.cnt) {
            let e = list.pointee.elems[i]
            result.append((KafkaTopicPartition(String(cString: e.topic), e.partition), e.offset, e.err))
        }
        return result
    }
}
