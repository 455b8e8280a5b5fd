/// A record header. Kafka allows a header without a value.
public struct KafkaHeader: Hashable, Sendable {
    public let name: String
    public let value: [UInt8]?

    public init(_ name: String, _ value: [UInt8]?) {
        self.name = name
        self.value = value
    }

    public init(_ name: String, _ text: String) { self.init(name, Array(text.utf8)) }
}

/// A record read from a partition; the bytes are copied out of librdkafka's buffers.
public struct KafkaMessage: Sendable {
    public let topic: String
    public let partition: Int32
    public let offset: Int64
    public let key: [UInt8]?
    public let value: [UInt8]
    public let headers: [KafkaHeader]
    /// Milliseconds since the epoch, when the broker gives one.
    public let timestampMs: Int64?
    /// The record has no value at all (a compacted topic's delete marker), not an empty one.
    public let isTombstone: Bool

    public init(topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8],
                headers: [KafkaHeader] = [], timestampMs: Int64? = nil, isTombstone: Bool = false) {
        self.isTombstone = isTombstone
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.headers = headers
        self.timestampMs = timestampMs
    }

    public var topicPartition: KafkaTopicPartition { KafkaTopicPartition(topic, partition) }

    /// The last header of that name (Kafka allows repeats; the last one wins, as in most clients).
    public func header(_ name: String) -> [UInt8]? { headers.last(where: { $0.name == name })?.value ?? nil }
}

/// A record to produce. A nil partition lets the partitioner choose by key, so that all records of
/// a key land in one partition.
public struct KafkaOutgoingMessage: Sendable, Hashable {
    public let topic: String
    public let key: [UInt8]?
    public let value: [UInt8]
    public let headers: [KafkaHeader]
    public let partition: Int32?
    /// Send no value at all: a compacted topic's delete marker for `key`.
    public let isTombstone: Bool

    public init(topic: String, key: [UInt8]?, value: [UInt8], headers: [KafkaHeader] = [], partition: Int32? = nil) {
        self.init(topic: topic, key: key, value: value, headers: headers, partition: partition, isTombstone: false)
    }

    private init(topic: String, key: [UInt8]?, value: [UInt8], headers: [KafkaHeader], partition: Int32?, isTombstone: Bool) {
        self.isTombstone = isTombstone
        self.topic = topic
        self.key = key
        self.value = value
        self.headers = headers
        self.partition = partition
    }
}

extension KafkaOutgoingMessage {
    /// A delete marker for `key` on a compacted topic.
    public static func tombstone(topic: String, key: [UInt8], partition: Int32? = nil) -> KafkaOutgoingMessage {
        KafkaOutgoingMessage(topic: topic, key: key, value: [], headers: [], partition: partition, isTombstone: true)
    }
}
