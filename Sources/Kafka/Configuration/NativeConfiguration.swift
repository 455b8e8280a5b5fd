import CRdKafka

/// Builds a `rd_kafka_conf_t` from properties. The caller owns the result until it hands it to
/// `rd_kafka_new`, which takes it over on success.
func makeNativeConfiguration(_ configuration: KafkaConfiguration) throws(KafkaError) -> OpaquePointer {
    guard let conf = rd_kafka_conf_new() else {
        throw .invalidConfiguration("librdkafka could not allocate a configuration")
    }
    var errstr = [CChar](repeating: 0, count: 512)
    for key in configuration.properties.keys.sorted() {
        let value = configuration.properties[key]!
        let result = rd_kafka_conf_set(conf, key, value, &errstr, errstr.count)
        if result != RD_KAFKA_CONF_OK {
            rd_kafka_conf_destroy(conf)
            let reason = text(of: errstr)
            let shown = KafkaConfiguration.isSecret(key) ? "[redacted]" : value
            throw .invalidConfiguration("librdkafka property \(key)=\(shown): \(reason)")
        }
    }
    return conf
}

/// Creates a client handle; on success the handle owns `conf`, on failure it is destroyed here.
func makeClient(_ type: rd_kafka_type_t, conf: OpaquePointer) throws(KafkaError) -> OpaquePointer {
    var errstr = [CChar](repeating: 0, count: 512)
    guard let rk = rd_kafka_new(type, conf, &errstr, errstr.count) else {
        rd_kafka_conf_destroy(conf)
        let reason = text(of: errstr)
        throw .invalidConfiguration("librdkafka could not create a client: \(reason)")
    }
    return rk
}

/// A bare producer handle for code beside this target that needs one to hang C objects on (the
/// embedded mock cluster). The caller owns it and ends it with `rd_kafka_destroy`.
package func makeProducerHandle(_ configuration: KafkaConfiguration) throws(KafkaError) -> OpaquePointer {
    try makeClient(RD_KAFKA_PRODUCER, conf: makeNativeConfiguration(configuration))
}
