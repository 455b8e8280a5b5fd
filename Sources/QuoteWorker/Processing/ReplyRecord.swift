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
        // `ContractHeader.replyHeaders`, built as bytes directly (a reply is the hot path): the
        // session header shares the key's bytes, the content type is one shared array.
        let key = Array(reply.sessionID.utf8)
        var headers: [KafkaHeader] = []
        headers.reserveCapacity(traceparent == nil ? 3 : 4)
        headers.append(KafkaHeader(ContractHeader.contentType, applicationJSON))
        headers.append(KafkaHeader(ContractHeader.sessionID, key))
        headers.append(KafkaHeader(ContractHeader.sequence, Array(String(reply.sequence).utf8)))
        if let traceparent { headers.append(KafkaHeader(ContractHeader.traceparent, Array(traceparent.utf8))) }
        return KafkaOutgoingMessage(topic: topic, key: key, value: reply.encode(), headers: headers)
    }

    private static let applicationJSON = Array(ContractHeader.applicationJSON.utf8)

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
