import CRdKafka

/// Topic creation and metadata over a short-lived client handle.
public enum KafkaTopicAdmin {
    /// A short-lived handle the caller destroys. It is a producer: a shared configuration's
    /// consumer properties are left out, which it would only warn about.
    private static func handle(_ configuration: KafkaConfiguration) throws(KafkaError) -> OpaquePointer {
        try makeProducerHandle(configuration.scoped(to: .producer))
    }

    /// A handle whose log lines go to `callbacks`' sink (librdkafka prints them itself without one);
    /// the caller keeps `callbacks` alive until the handle is destroyed.
    private static func handle(_ configuration: KafkaConfiguration, callbacks: ClientCallbacks) throws(KafkaError) -> OpaquePointer {
        let conf = try makeNativeConfiguration(configuration.scoped(to: .producer))
        callbacks.install(on: conf)
        return try makeClient(RD_KAFKA_PRODUCER, conf: conf)
    }

    /// Creates the topics that do not exist yet; a topic that already exists is left as it is.
    /// `log` takes librdkafka's log lines (as a worker's clients pass them on).
    public static func createTopics(_ topics: [KafkaTopicSpec], configuration: KafkaConfiguration,
                                    timeoutMs: Int32 = 30_000, log: KafkaLogSink? = nil) throws(KafkaError) {
        guard !topics.isEmpty else { return }
        let callbacks = ClientCallbacks(log: log, onError: nil)
        let rk = try log == nil ? handle(configuration) : handle(configuration, callbacks: callbacks)
        defer { withExtendedLifetime(callbacks) { rd_kafka_destroy(rk) } }
        var errstr = [CChar](repeating: 0, count: 512)
        var newTopics: [OpaquePointer?] = []
        defer { for t in newTopics { rd_kafka_NewTopic_destroy(t) } }
        for spec in topics {
            guard let t = rd_kafka_NewTopic_new(spec.name, Int32(spec.partitions), Int32(spec.replicationFactor),
                                                &errstr, errstr.count) else {
                throw .invalidConfiguration("topic \(spec.name): \(text(of: errstr))")
            }
            newTopics.append(t)
            for (key, value) in spec.config.sorted(by: { $0.key < $1.key }) {
                let err = rd_kafka_NewTopic_set_config(t, key, value)
                if err != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(err, context: "topic \(spec.name) config \(key)") }
            }
        }
        let queue = rd_kafka_queue_new(rk)
        defer { rd_kafka_queue_destroy(queue) }
        let options = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_CREATETOPICS)
        defer { rd_kafka_AdminOptions_destroy(options) }
        _ = rd_kafka_AdminOptions_set_operation_timeout(options, timeoutMs, &errstr, errstr.count)
        newTopics.withUnsafeMutableBufferPointer { buffer in
            rd_kafka_CreateTopics(rk, buffer.baseAddress, buffer.count, options, queue)
        }
        guard let event = rd_kafka_queue_poll(queue, timeoutMs + 5_000) else {
            throw KafkaError(RD_KAFKA_RESP_ERR__TIMED_OUT, context: "create topics")
        }
        defer { rd_kafka_event_destroy(event) }
        let eventErr = rd_kafka_event_error(event)
        if eventErr != RD_KAFKA_RESP_ERR_NO_ERROR { throw KafkaError(eventErr, context: "create topics") }
        guard let result = rd_kafka_event_CreateTopics_result(event) else { return }
        var count = 0
        guard let results = rd_kafka_CreateTopics_result_topics(result, &count) else { return }
        for i in 0..<count {
            let r = results[i]
            let err = rd_kafka_topic_result_error(r)
            if err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS {
                let name = String(cString: rd_kafka_topic_result_name(r))
                throw KafkaError(err, context: "create topic \(name)")
            }
        }
    }

    /// Partition counts of the topics the cluster knows; a missing topic is absent from the result.
    public static func partitionCounts(configuration: KafkaConfiguration, timeoutMs: Int32 = 10_000) throws(KafkaError) -> [String: Int] {
        let rk = try handle(configuration)
        defer { rd_kafka_destroy(rk) }
        var metadata: UnsafePointer<rd_kafka_metadata>?
        let err = rd_kafka_metadata(rk, 1, nil, &metadata, timeoutMs)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR, let metadata else { throw KafkaError(err, context: "read cluster metadata") }
        defer { rd_kafka_metadata_destroy(metadata) }
        var counts: [String: Int] = [:]
        for i in 0..<Int(metadata.pointee.topic_cnt) {
            let t = metadata.pointee.topics[i]
            if t.err == RD_KAFKA_RESP_ERR_NO_ERROR { counts[String(cString: t.topic)] = Int(t.partition_cnt) }
        }
        return counts
    }
}
