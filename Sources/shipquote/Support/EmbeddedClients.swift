import Kafka

/// Client settings for the embedded broker (its topics are `TopicLayout`'s).
enum EmbeddedClients {
    /// The 2.0.2 mock cluster holds an empty fetch for the whole `fetch.wait.max.ms`, so the
    /// default 500 ms would show as latency on every hop.
    static func defaults(bootstrap: String) -> KafkaConfiguration {
        KafkaConfiguration([
            "bootstrap.servers": bootstrap,
            "fetch.wait.max.ms": "1",
            "session.timeout.ms": "6000",
            "heartbeat.interval.ms": "500",
            // The embedded broker's topics are fresh: every consumer reads them from the start, also
            // those that bring no policy of their own (the bench's echo worker), now that the Kafka
            // face no longer sets this for every consumer.
            "auto.offset.reset": "earliest",
        ])
    }
}
