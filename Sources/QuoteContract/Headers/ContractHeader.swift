/// Kafka header names of the wire contract (docs/contract.md). Names are lower case, values UTF-8.
public enum ContractHeader {
    /// On every reply, with the value `applicationJSON`.
    public static let contentType = "content-type"
    public static let applicationJSON = "application/json"
    /// On every reply: the session id, as the key is.
    public static let sessionID = "session-id"
    /// On every reply: the decimal sequence the reply answers.
    public static let sequence = "sequence"
    /// W3C trace context, copied from the event to its reply when present.
    public static let traceparent = "traceparent"

    // Dead letters: why the record is there and where it came from.
    /// A `RejectionCode` raw value (`not_json`, `key_mismatch`, …).
    public static let errorCode = "error-code"
    /// Words without personal data (`EventRejection.message`).
    public static let errorMessage = "error-message"
    public static let sourceTopic = "source-topic"
    /// Decimal partition number.
    public static let sourcePartition = "source-partition"
    /// Decimal offset.
    public static let sourceOffset = "source-offset"

    /// The headers every reply carries, in this order, `traceparent` last when the event had one.
    public static func replyHeaders(sessionID: String, sequence: Int64, traceparent: String? = nil) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [
            (contentType, applicationJSON),
            (ContractHeader.sessionID, sessionID),
            (ContractHeader.sequence, String(sequence)),
        ]
        if let traceparent { headers.append((ContractHeader.traceparent, traceparent)) }
        return headers
    }

    /// The headers a dead letter carries: why, and where the original record was read.
    public static func deadLetterHeaders(rejection: EventRejection, sourceTopic: String, sourcePartition: Int32,
                                         sourceOffset: Int64) -> [(name: String, value: String)] {
        [
            (errorCode, rejection.code.rawValue),
            (errorMessage, rejection.message),
            (ContractHeader.sourceTopic, sourceTopic),
            (ContractHeader.sourcePartition, String(sourcePartition)),
            (ContractHeader.sourceOffset, String(sourceOffset)),
        ]
    }
}
