import Kafka

extension Logger {
    /// librdkafka's log lines as structured lines of this logger (syslog levels mapped to ours),
    /// for every Kafka client of the process: the worker's and a gateway's alike.
    public var kafkaLogSink: KafkaLogSink {
        { [self] record in
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
