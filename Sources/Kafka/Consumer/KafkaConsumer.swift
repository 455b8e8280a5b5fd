import CRdKafka
import Foundation
import Synchronization

/// A member of a consumer group, or a reader of partitions assigned by hand. The configuration is
/// taken as given: what to commit, where a new group starts and which assignor to use are the
/// caller's policy (librdkafka's defaults apply to whatever it leaves unset).
/// Confined to one thread, which polls, commits and closes (the rebalance handler runs on it
/// too). Sendable only for `wakeUp` and `unsubscribe`, the two calls documented as safe from any
/// thread (librdkafka hands both to its own threads).
public final class KafkaConsumer: @unchecked Sendable {
    private let rk: OpaquePointer
    private let callbacks: ConsumerCallbacks
    private var closed = false
    private var abandoned = false
    private let hasGroup: Bool
    private let consumerQueue: OpaquePointer?
    /// The topic of the last record polled, as a handle and its name (see `poll`).
    private let lastTopicName = Mutex<PolledTopic?>(nil)

    public init(configuration: KafkaConfiguration, log: KafkaLogSink? = nil,
                onError: (@Sendable (KafkaError) -> Void)? = nil,
                onStatistics: (@Sendable (String) -> Void)? = nil,
                onRebalance: @escaping (KafkaRebalanceEvent) -> Void) throws(KafkaError) {
        var config = configuration
        // Not policy, only noise: librdkafka logs every idle connection the broker closes.
        config.setDefault("log.connection.close", "false")

        callbacks = ConsumerCallbacks(log: log, onError: onError, onRebalance: onRebalance)
        callbacks.onStatistics = onStatistics
        let conf = try makeNativeConfiguration(config)
        callbacks.install(on: conf)
        rd_kafka_conf_set_rebalance_cb(conf) { rk, err, partitions, opaque in
            guard let rk, let opaque else { return }
            let callbacks = Unmanaged<ClientCallbacks>.fromOpaque(opaque).takeUnretainedValue() as! ConsumerCallbacks
            let owned = PartitionList.read(partitions).map(\.0)
            if err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS {
                rd_kafka_assign(rk, partitions)
                callbacks.onRebalance(.assigned(owned))
            } else {
                if err == RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS { callbacks.onRebalance(.revoked(owned)) }
                rd_kafka_assign(rk, nil)
            }
        }
        hasGroup = config["group.id"] != nil
        rk = try makeClient(RD_KAFKA_CONSUMER, conf: conf)
        // Route the main queue to the consumer queue so one poll serves messages, rebalances and errors.
        rd_kafka_poll_set_consumer(rk)
        // Our reference to the queue `poll` waits on, for `wakeUp`; released in deinit.
        consumerQueue = rd_kafka_queue_get_consumer(rk)
    }

    /// Destroyed without a consumer close of librdkafka's own. After `close()` a second close is
    /// redundant, and librdkafka 2.0.2's was seen to wait forever there (`rd_kafka_destroy` →
    /// `rd_kafka_consumer_close` in `cnd_wait`, after a worker stopped on a fatal producer error).
    /// A consumer its owner never closed (an error path) is not closed here either: a close would
    /// call the rebalance handler into an owner being torn down, and was seen to wait forever once
    /// the test's broker was gone. The group then takes its partitions back after
    /// `session.timeout.ms`, as after a crash.
    deinit {
        if let consumerQueue { rd_kafka_queue_destroy(consumerQueue) }
        rd_kafka_destroy_flags(rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE)
    }

    /// Leaves the handle, its threads and its callbacks to the process's exit: the consumer is
    /// never deinitialized. For a consumer whose owner stopped on a fatal client error and is about
    /// to exit: there librdkafka 2.0.2's destroy was seen to never return, its main thread
    /// spinning at full CPU while the destroying thread waited to join it.
    public func abandon() {
        guard !abandoned else { return }
        abandoned = true
        // librdkafka's threads may still call its callbacks: the consumer is kept, not leaked, so
        // that they stay alive and a leak checker (LeakSanitizer) sees them held on purpose.
        Self.abandonedConsumers.withLock { $0.append(self) }
    }

    /// Consumers abandoned after a fatal client error, held until the process exits.
    private static let abandonedConsumers = Mutex<[KafkaConsumer]>([])

    /// Makes a `poll` that is waiting return at once (with what it has). Safe from any thread: the
    /// delivery-report thread uses it so that the polling thread handles a report without waiting
    /// out its poll timeout.
    public func wakeUp() {
        if let consumerQueue { rd_kafka_queue_yield(consumerQueue) }
    }

    /// Joins the consumer group (`group.id` is required) and follows these topics.
    public func subscribe(_ topics: [String]) throws(KafkaError) {
        guard hasGroup else { throw .invalidConfiguration("group.id is required to subscribe to \(topics)") }
        let list = PartitionList.make(topics.map { KafkaTopicPartition($0, RD_KAFKA_PARTITION_UA) })
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let err = rd_kafka_subscribe(rk, list)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err, context: "subscribe to \(topics)") }
    }

    /// Waits up to `timeoutMs` for one record, then takes whatever else is already fetched, up to
    /// `maxMessages`, without waiting again (so a lone record does not pay a batch timeout).
    /// Consumer errors (a broker going away, say) go to the error handler; librdkafka retries them.
    public func poll(maxMessages: Int, timeoutMs: Int32) -> [KafkaMessage] {
        var batch: [KafkaMessage] = []
        var wait = timeoutMs
        // Records come from a topic or two: a topic's name is made into a String once, not per
        // record (nor per poll, which below saturation brings one record).
        var lastTopic = lastTopicName.withLock { $0 }
        defer { lastTopicName.withLock { $0 = lastTopic } }
        while batch.count < maxMessages {
            guard let raw = rd_kafka_consumer_poll(rk, wait) else { break }
            wait = 0
            defer { rd_kafka_message_destroy(raw) }
            let err = raw.pointee.err
            if err != RD_KAFKA_RESP_ERR_NO_ERROR {
                if err != RD_KAFKA_RESP_ERR__PARTITION_EOF {
                    callbacks.onError?(KafkaError(err, context: "consume"))
                }
                continue
            }
            batch.append(Self.copy(raw, lastTopic: &lastTopic))
        }
        return batch
    }

    private static func copy(_ raw: UnsafeMutablePointer<rd_kafka_message_t>,
                             lastTopic: inout PolledTopic?) -> KafkaMessage {
        let m = raw.pointee
        let topic: String
        let cName = rd_kafka_topic_name(m.rkt)
        // The name is compared too: a freed topic handle's address may come back as another topic's.
        if let last = lastTopic, last.handle == m.rkt, let cName, last.name.withCString({ strcmp($0, cName) == 0 }) {
            topic = last.name
        } else {
            topic = cName.map { String(cString: $0) } ?? ""
            lastTopic = PolledTopic(handle: m.rkt, name: topic)
        }
        let key: [UInt8]? = m.key.map { Array(UnsafeRawBufferPointer(start: $0, count: m.key_len)) }
        let value: [UInt8] = m.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: m.len)) } ?? []
        var headers: [KafkaHeader] = []
        var hdrs: OpaquePointer?
        if rd_kafka_message_headers(raw, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR, let hdrs {
            var index = 0
            var name: UnsafePointer<CChar>?
            var valuePtr: UnsafeRawPointer?
            var size = 0
            while rd_kafka_header_get_all(hdrs, index, &name, &valuePtr, &size) == RD_KAFKA_RESP_ERR_NO_ERROR {
                let bytes = valuePtr.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) }
                headers.append(KafkaHeader(name.map { String(cString: $0) } ?? "", bytes))
                index += 1
            }
        }
        var tsType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let ts = rd_kafka_message_timestamp(raw, &tsType)
        return KafkaMessage(topic: topic, partition: m.partition, offset: m.offset, key: key, value: value,
                            headers: headers, timestampMs: tsType == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE ? nil : ts,
                            isTombstone: m.payload == nil)
    }

    /// Commits synchronously. Each offset is the next one to consume (last finished + 1).
    public func commit(_ offsets: [KafkaTopicPartition: Int64]) throws(KafkaError) {
        guard !offsets.isEmpty else { return }
        let list = PartitionList.make(offsets.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let err = rd_kafka_commit(rk, list, 0)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR__NO_OFFSET {
            throw KafkaError(err, context: "commit offsets")
        }
        for (tp, _, perr) in PartitionList.read(list) where perr != RD_KAFKA_RESP_ERR_NO_ERROR {
            throw KafkaError(perr, context: "commit offset of \(tp)")
        }
    }

    /// The group's committed offsets for these partitions (nil where none is committed).
    public func committed(_ partitions: [KafkaTopicPartition], timeoutMs: Int32 = 10_000) throws(KafkaError) -> [KafkaTopicPartition: Int64] {
        let list = PartitionList.make(partitions)
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let err = rd_kafka_committed(rk, list, timeoutMs)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err, context: "read committed offsets") }
        var result: [KafkaTopicPartition: Int64] = [:]
        for (tp, offset, _) in PartitionList.read(list) where offset >= 0 { result[tp] = offset }
        return result
    }

    /// Reads these partitions from the given offsets without joining the group (a reader of
    /// replies, say). librdkafka still wants a `group.id` for it; no offsets are committed.
    public func assign(_ offsets: [KafkaTopicPartition: Int64]) throws(KafkaError) {
        let list = PartitionList.make(offsets.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let err = rd_kafka_assign(rk, list)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err, context: "assign \(offsets.keys.sorted())") }
    }

    /// The partition's low and high watermarks as the leader sees them now: the next record
    /// produced lands at `high`.
    public func watermarks(_ tp: KafkaTopicPartition, timeoutMs: Int32 = 10_000) throws(KafkaError) -> (low: Int64, high: Int64) {
        var low: Int64 = 0, high: Int64 = 0
        let err = rd_kafka_query_watermark_offsets(rk, tp.topic, tp.partition, &low, &high, timeoutMs)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err, context: "read watermarks of \(tp)") }
        return (low, high)
    }

    /// The topic's partition count from the cluster's metadata.
    public func partitionCount(_ topic: String, timeoutMs: Int32 = 10_000) throws(KafkaError) -> Int {
        guard let rkt = rd_kafka_topic_new(rk, topic, nil) else {
            throw KafkaError(rd_kafka_last_error(), context: "open topic \(topic)")
        }
        defer { rd_kafka_topic_destroy(rkt) }
        var metadata: UnsafePointer<rd_kafka_metadata>?
        let err = rd_kafka_metadata(rk, 0, rkt, &metadata, timeoutMs)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR, let metadata else { throw KafkaError(err, context: "read metadata of \(topic)") }
        defer { rd_kafka_metadata_destroy(metadata) }
        guard metadata.pointee.topic_cnt == 1, metadata.pointee.topics[0].err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            let terr = metadata.pointee.topic_cnt == 1 ? metadata.pointee.topics[0].err : RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART
            throw KafkaError(terr, context: "topic \(topic)")
        }
        return Int(metadata.pointee.topics[0].partition_cnt)
    }

    /// Stops reading every partition assigned by hand.
    public func unassign() { _ = rd_kafka_assign(rk, nil) }

    /// The next offset this consumer will hand out for each partition (nil where it has none yet).
    public func positions(_ partitions: [KafkaTopicPartition]) -> [KafkaTopicPartition: Int64] {
        let list = PartitionList.make(partitions)
        defer { rd_kafka_topic_partition_list_destroy(list) }
        guard rd_kafka_position(rk, list) == RD_KAFKA_RESP_ERR_NO_ERROR else { return [:] }
        var result: [KafkaTopicPartition: Int64] = [:]
        for (tp, offset, _) in PartitionList.read(list) where offset >= 0 { result[tp] = offset }
        return result
    }

    /// Stops fetching these partitions (backpressure) until `resume`. librdkafka keeps the pause
    /// across a revocation and a later assignment of the same partition.
    ///
    /// librdkafka 2.0.2 orders a partition's operations by a version taken before each is queued,
    /// and drops one found older than the last served. So a pause or resume racing an operation of
    /// librdkafka's own is lost, or makes that one lost: before a record of a group partition has
    /// arrived, its fetcher's start may be under way, and losing it means the partition is never
    /// fetched, with no error (librdkafka issues #2190, #5591); when a rebalance begins, librdkafka
    /// pauses the assignment itself. Pause or resume a partition only once its records arrive, and
    /// resume it again when it is revoked.
    public func pause(_ partitions: [KafkaTopicPartition]) {
        guard !partitions.isEmpty else { return }
        let list = PartitionList.make(partitions)
        defer { rd_kafka_topic_partition_list_destroy(list) }
        _ = rd_kafka_pause_partitions(rk, list)
    }

    public func resume(_ partitions: [KafkaTopicPartition]) {
        guard !partitions.isEmpty else { return }
        let list = PartitionList.make(partitions)
        defer { rd_kafka_topic_partition_list_destroy(list) }
        _ = rd_kafka_resume_partitions(rk, list)
    }

    public func assignment() -> [KafkaTopicPartition] {
        var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
        guard rd_kafka_assignment(rk, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return [] }
        defer { rd_kafka_topic_partition_list_destroy(list) }
        return PartitionList.read(list).map(\.0).sorted()
    }

    /// Stops following the subscribed topics, which takes this member out of the group's
    /// assignment. Unlike every other call here it may come from another thread: librdkafka hands
    /// it to its own group thread, so a watchdog can use it while the polling thread is stuck.
    public func unsubscribe() { _ = rd_kafka_unsubscribe(rk) }

    /// Leaves the group: the rebalance handler sees the final revoke, so finished work is committed.
    public func close() {
        guard !closed else { return }
        closed = true
        _ = rd_kafka_consumer_close(rk)
    }
}

/// `onRebalance` is not Sendable: librdkafka calls it only from inside `poll`, on the polling thread.
final class ConsumerCallbacks: ClientCallbacks, @unchecked Sendable {
    let onRebalance: (KafkaRebalanceEvent) -> Void

    init(log: KafkaLogSink?, onError: (@Sendable (KafkaError) -> Void)?, onRebalance: @escaping (KafkaRebalanceEvent) -> Void) {
        self.onRebalance = onRebalance
        super.init(log: log, onError: onError)
    }
}

/// A polled record's topic: librdkafka's handle (only compared, never used) and the name.
struct PolledTopic: @unchecked Sendable {
    let handle: OpaquePointer
    let name: String
}
