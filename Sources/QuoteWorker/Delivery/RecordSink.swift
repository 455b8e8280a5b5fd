import Kafka

/// Where the delivery pipeline sends records: the Kafka producer in the worker, a recording double
/// in tests. `completion` may run on any thread.
public protocol RecordSink: AnyObject {
    /// Queues the record, or says false when the queue is full (the caller keeps it and tries later).
    func sendIfRoom(_ message: KafkaOutgoingMessage,
                    completion: @escaping @Sendable (KafkaDeliveryReport) -> Void) throws(KafkaError) -> Bool
    /// Records queued and not yet delivered.
    var queueLength: Int { get }
}

extension KafkaProducer: RecordSink {}
