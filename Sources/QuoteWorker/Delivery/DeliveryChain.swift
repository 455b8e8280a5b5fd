import Foundation
import Kafka

/// Records to produce one after another for one input record: each is produced only once the one
/// before it is delivered (a reply only after its state record). The last delivery finishes a share
/// of the input record's offset.
public struct DeliveryChain: Sendable, Equatable {
    public let records: [KafkaOutgoingMessage]
    /// Set on a reply's chain: when the event it answers happened, for the end-to-end histogram.
    public let answersEventOf: Date?

    public init(_ records: [KafkaOutgoingMessage], answersEventOf: Date? = nil) {
        precondition(!records.isEmpty, "a chain holds at least one record")
        self.records = records
        self.answersEventOf = answersEventOf
    }
}
