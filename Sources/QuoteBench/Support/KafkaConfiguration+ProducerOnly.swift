import Kafka

extension KafkaConfiguration {
    /// Without the consumer-only keys, which a producer would warn about.
    var producerOnly: KafkaConfiguration {
        var c = self
        for key in ["group.id", "session.timeout.ms", "heartbeat.interval.ms", "fetch.wait.max.ms", "fetch.min.bytes",
                    "fetch.max.bytes", "max.partition.fetch.bytes", "queued.min.messages", "queued.max.messages.kbytes",
                    "auto.offset.reset", "max.poll.interval.ms", "partition.assignment.strategy", "enable.partition.eof"] {
            c[key] = nil
        }
        return c
    }
}
