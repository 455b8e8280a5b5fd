import Kafka
import QuoteContract

/// The Kafka records the worker writes: replies keyed by session, and dead letters that keep the
/// original key and bytes with headers saying why.
enum ReplyRecord {
    /// The reply's `traceparent` continues the event's trace: same trace id and flags, a new span id
    /// from `spanIDs` (the reply's span, a child of the event's). An event without a valid one gets a
    /// reply without one: the worker starts no trace of its own.
    static func reply(_ reply: QuoteReply, topic: String, parent: TraceContext?, spanIDs: inout SpanIDGenerator) -> KafkaOutgoingMessage {
        let traceparent = parent.map { $0.child(spanID: spanIDs.next()).traceparent }
        let headers = ContractHeader.replyHeaders(sessionID: reply.sessionID, sequence: reply.sequence, traceparent: traceparent)
            .map { KafkaHeader($0.name, $0.value) }
        return KafkaOutgoingMessage(topic: topic, key: Array(reply.sessionID.utf8), value: reply.encode(), headers: headers)
    }

    /// Whether `record` is a reply: it carries the reply headers (content type first, then the
    /// session) and no dead-letter verdict (a dead letter keeps the event's own headers before ours).
    static func isReply(_ record: KafkaOutgoingMessage) -> Bool {
        record.headers.count >= 3 && record.headers[0] == KafkaHeader(ContractHeader.contentType, ContractHeader.applicationJSON)
            && record.headers[1].name == ContractHeader.sessionID
            && !record.headers.contains { $0.name == ContractHeader.errorCode }
    }

    static func deadLetter(_ original: KafkaMessage, rejection: EventRejection, topic: String) -> KafkaOutgoingMessage {
        // The original headers travel along (a traceparent helps whoever investigates); ours come last,
        // so that a reader taking the last header of a name gets the worker's verdict.
        let headers = original.headers + ContractHeader.deadLetterHeaders(
            rejection: rejection, sourceTopic: original.topic, sourcePartition: original.partition,
            sourceOffset: original.offset).map { KafkaHeader($0.name, $0.value) }
        return KafkaOutgoingMessage(topic: topic, key: original.key, value: original.value, headers: headers)
    }
}
