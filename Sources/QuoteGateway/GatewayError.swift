import Kafka

/// Why a quote call ended without an answer.
public enum GatewayError: Error, Sendable, CustomStringConvertible {
    /// No reply came before the event's `reply_by` (or the gateway's default wait): the sheet is gone.
    case timedOut(sessionID: String, sequence: Int64)
    /// The event could not be produced.
    case kafka(KafkaError)
    /// The caller's task was cancelled while waiting.
    case cancelled

    public var description: String {
        switch self {
        case .timedOut(let session, let sequence): "no reply to session \(session) sequence \(sequence) in time"
        case .kafka(let error): "could not produce the event: \(error)"
        case .cancelled: "cancelled while waiting for the reply"
        }
    }
}
