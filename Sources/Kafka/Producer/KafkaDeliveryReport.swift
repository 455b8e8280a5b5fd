/// The broker's answer for one produced record.
public enum KafkaDeliveryReport: Sendable {
    case delivered(partition: Int32, offset: Int64)
    case failed(KafkaError)
}

/// Carries a record's completion through librdkafka as the message opaque: retained when the
/// record is queued, released when its delivery report has been handled (or the queueing failed).
final class PendingDelivery {
    let completion: @Sendable (KafkaDeliveryReport) -> Void
    init(_ completion: @escaping @Sendable (KafkaDeliveryReport) -> Void) { self.completion = completion }
}
