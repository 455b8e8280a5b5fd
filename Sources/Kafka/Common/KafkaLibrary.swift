import CRdKafka

/// The librdkafka this process runs with (the shared library loaded, not the headers built against).
public enum KafkaLibrary {
    /// `rd_kafka_version_str()`, e.g. `2.0.2`.
    public static var version: String { String(cString: rd_kafka_version_str()) }
}
