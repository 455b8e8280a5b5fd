import Kafka

extension Logger {
    /// librdkafka's log lines as structured lines of this logger (syslog levels mapped to ours),
    /// for every Kafka client of the process: the worker's and a gateway's alike.
    ///
    /// A broker connection failing (facility `FAIL`: refused, lost, timed out) is left out here:
    /// librdkafka reports each one twice, as this log line and as an error to the client's error
    /// callback with the same text, and `kafkaClientError` writes that one, with its code. So pair
    /// this sink with `kafkaClientError` (the worker and the gateway do): one line per broker failure.
    public var kafkaLogSink: KafkaLogSink { kafkaLogSink(keepingFailures: false) }

    /// The same, keeping broker failures: for a client with no error callback (the topic admin).
    public func kafkaLogSink(keepingFailures: Bool) -> KafkaLogSink {
        { [self] record in
            if !keepingFailures && record.facility == "FAIL" && record.level < 7 { return }
            let level: Level = record.level <= 3 ? .error : record.level == 4 ? .warning : record.level <= 6 ? .info : .debug
            log(level, "librdkafka", ["facility": .text(record.facility), "detail": .text(record.message),
                                      "client": .text(record.client)])
        }
    }

    /// An error a Kafka client reports outside any call (brokers down, a fatal error).
    public func kafkaClientError(_ error: KafkaError) {
        log(error.isFatal ? .error : .warning, "kafka client error", ["code": .text(error.name), "detail": .text(error.message)])
    }
}
