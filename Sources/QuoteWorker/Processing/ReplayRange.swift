import Kafka
import QuoteContract

/// What a new owner of a partition learns before answering anything: each session's newest
/// sequence among the records from the group's committed offset up to the high watermark seen at
/// assignment. The old owner may have published a reply for any of those records without its state
/// record being delivered (state and reply are produced together), so within the range only each
/// session's newest event is answered: whatever the old owner published is then never followed by
/// an older answer.
public struct ReplayRange: Sendable, Equatable {
    /// Offsets below this are in the range.
    public let end: Int64
    public private(set) var newest: [SessionKey: Int64] = [:]
    /// Records read into the range.
    public private(set) var records = 0

    public init(end: Int64) { self.end = end }

    /// Notes one record of the range, read exactly as the processor will read it: a valid event, or
    /// a refused one whose session and sequence go through the gate (those of another session's
    /// partition never do, and count for nothing).
    public mutating func note(_ message: KafkaMessage) {
        records += 1
        switch IncomingEvent.read(message.value, key: message.key) {
        case .success(let event): raise(event.session, event.sequence)
        case .failure(let rejection):
            if rejection.code != .keyMismatch, let session = rejection.sessionID, let sequence = rejection.sequence {
                raise(SessionKey(session), sequence)
            }
        }
    }

    private mutating func raise(_ session: SessionKey, _ sequence: Int64) {
        newest[session] = max(newest[session] ?? .min, sequence)
    }

    /// The newest sequence of `session` in the range, if the record at `offset` lies in it.
    func newest(_ session: SessionKey, at offset: Int64) -> Int64? {
        offset < end ? newest[session] : nil
    }
}
