import Kafka
import QuoteContract

/// The Kafka records the worker writes: replies keyed by session, and dead letters that keep the
/// original key and bytes with headers saying why.
enum ReplyRecord {
    static func reply(_ reply: QuoteReply, topic: String, traceparent: [UInt8]?) -> KafkaOutgoingMessage {
        var headers = ContractHeader.replyHeaders(sessionID: reply.sessionID, sequence: reply.sequence)
            .map { KafkaHeader($0.name, $0.value) }
        // Copied as bytes: the worker passes the trace context along without judging it.
        if let traceparent { headers.append(KafkaHeader(ContractHeader.traceparent, traceparent)) }
        return KafkaOutgoingMessage(topic: topic, key: Array(reply.sessionID.utf8), value: reply.encode(), headers: headers)
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
