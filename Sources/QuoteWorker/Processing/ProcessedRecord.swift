import Kafka
import QuoteContract

/// What the event processor decided for one fetched record: the records to produce for it, and
/// what to count. Its offset becomes committable once every chain is delivered (at once when there
/// are none).
public struct ProcessedRecord: Sendable, Equatable {
    public enum Disposition: Sendable, Equatable {
        /// Answered: a state record, then the reply.
        case answered(outcome: String)
        /// No reply, for this reason. An expired event still records its sequence.
        case dropped(DropReason)
        /// Unreadable: the dead letter, and a `rejected` reply when session and sequence were readable.
        case deadLettered(RejectionCode)
        /// Not finished by this worker (the watchdog tripped mid-batch): neither produced nor
        /// registered, so its offset is never committed here and the next owner replays it.
        case leftForReplay
    }

    public let source: KafkaTopicPartition
    public let offset: Int64
    public let disposition: Disposition
    public let chains: [DeliveryChain]
    /// For logs: ids only, never an address or a cart.
    public let session: SessionKey?
    public let sequence: Int64?
    public let eventID: String?
    /// For a dead letter: the field that broke the contract, when one did.
    public let field: String?
    /// The event's valid `traceparent`, for its log lines.
    public let trace: TraceContext?

    init(source: KafkaTopicPartition, offset: Int64, disposition: Disposition, chains: [DeliveryChain] = [],
         session: SessionKey? = nil, sequence: Int64? = nil, eventID: String? = nil, field: String? = nil, trace: TraceContext? = nil) {
        self.source = source
        self.offset = offset
        self.disposition = disposition
        self.chains = chains
        self.session = session
        self.sequence = sequence
        self.eventID = eventID
        self.field = field
        self.trace = trace
    }

    /// The session id as text, made now (a log line's; most records are never logged).
    public var sessionID: String? { session?.text }
}
