import Kafka

/// Why a gateway call ended without an answer.
public enum GatewayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No reply came before the deadline (the event's `reply_by`, or the wait the caller gave):
    /// the sheet is gone. The one shape every time-out of the gateway takes.
    case timedOut(sessionID: String, sequence: Int64)
    /// The event could not be produced; retry the call, or check the Kafka settings it names.
    case kafka(KafkaError)
    /// A Kafka client of the gateway failed for good (a fatal idempotent-producer error, say):
    /// every pending call ends with it. Close this gateway and make a new one.
    case clientFailed(KafkaError)
    /// The caller's task was cancelled while waiting.
    case cancelled
    /// The gateway was closed; make a new one.
    case closed

    public var description: String {
        switch self {
        case .timedOut(let session, let sequence): "no reply to session \(session) sequence \(sequence) in time"
        case .kafka(let error): "could not produce the event: \(error)"
        case .clientFailed(let error): "the gateway's Kafka client failed, make a new gateway: \(error)"
        case .cancelled: "cancelled while waiting for the reply"
        case .closed: "the gateway is closed; make a new one"
        }
    }
}
