import CRdKafka

/// What a client's C callbacks reach through librdkafka's opaque pointer. The client object keeps
/// it alive for as long as the `rd_kafka_t` exists (it is released only after `rd_kafka_destroy`).
/// Sendable: librdkafka calls it from its own threads; its closures are Sendable, and
/// `onStatistics` is set once, before the client exists.
class ClientCallbacks: @unchecked Sendable {
    let log: KafkaLogSink?
    /// Errors librdkafka reports outside any call (brokers down, fatal idempotence errors).
    let onError: (@Sendable (KafkaError) -> Void)?
    /// librdkafka's statistics JSON, every `statistics.interval.ms` (lag, round-trip times, queues).
    var onStatistics: (@Sendable (String) -> Void)?

    init(log: KafkaLogSink?, onError: (@Sendable (KafkaError) -> Void)?, onStatistics: (@Sendable (String) -> Void)? = nil) {
        self.log = log
        self.onError = onError
        self.onStatistics = onStatistics
    }

    static func from(_ rk: OpaquePointer?) -> ClientCallbacks? {
        guard let rk, let opaque = rd_kafka_opaque(rk) else { return nil }
        return Unmanaged<ClientCallbacks>.fromOpaque(opaque).takeUnretainedValue()
    }

    /// Points `conf` at this object and installs the log and error callbacks.
    func install(on conf: OpaquePointer) {
        rd_kafka_conf_set_opaque(conf, Unmanaged.passUnretained(self).toOpaque())
        rd_kafka_conf_set_log_cb(conf) { rk, level, facility, buffer in
            guard let callbacks = ClientCallbacks.from(rk), let sink = callbacks.log else { return }
            sink(KafkaLogRecord(level: level, facility: facility.map { String(cString: $0) } ?? "",
                                message: buffer.map { String(cString: $0) } ?? "",
                                client: rk.map { String(cString: rd_kafka_name($0)) } ?? ""))
        }
        if onStatistics != nil {
            rd_kafka_conf_set_stats_cb(conf) { _, json, length, opaque in
                guard let opaque, let json else { return 0 }
                let callbacks = Unmanaged<ClientCallbacks>.fromOpaque(opaque).takeUnretainedValue()
                let text = String(decoding: UnsafeRawBufferPointer(start: json, count: length), as: UTF8.self)
                callbacks.onStatistics?(text)
                return 0  // 0: librdkafka frees the JSON buffer
            }
        }
        rd_kafka_conf_set_error_cb(conf) { rk, err, reason, opaque in
            guard let opaque else { return }
            let err = rd_kafka_resp_err_t(rawValue: err)
            let callbacks = Unmanaged<ClientCallbacks>.fromOpaque(opaque).takeUnretainedValue()
            let context = reason.map { String(cString: $0) } ?? "client error"
            if err == RD_KAFKA_RESP_ERR__FATAL, let rk {
                // The fatal error's own code and text say what went wrong; _FATAL only says that it did.
                var errstr = [CChar](repeating: 0, count: 512)
                let original = rd_kafka_fatal_error(rk, &errstr, errstr.count)
                callbacks.onError?(KafkaError(original, context: text(of: errstr), isFatal: true))
                return
            }
            callbacks.onError?(KafkaError(err, context: context))
        }
    }
}
