import Foundation
import Kafka
import QuoteContract

/// A fetched record that holds a valid event: what the sequence check and the deadline need,
/// read at once, and the whole event (address, cart) made only for the events that are quoted.
/// Most records of a backlog are dropped as superseded, and never pay for their strings.
struct ReadEvent {
    let sessionID: String
    let sequence: Int64
    let eventID: String?
    let occurredAt: Date
    let replyBy: Date?
    private let source: Source

    private enum Source {
        case scanned(ScannedEvent)
        case decoded(AddressChangeEvent)
    }

    /// The record's event, or why it cannot be read (it goes to the dead letters).
    static func read(_ message: KafkaMessage) -> Result<ReadEvent, EventRejection> {
        if let scanned = ScannedEvent(message.value, key: message.key) {
            return .success(ReadEvent(scanned))
        }
        // The quick path passed it on: the full decoder reads it or says which field is wrong.
        return AddressChangeEvent.decodeThoroughly(message.value, checkingKey: true, key: message.key).map(ReadEvent.init)
    }

    private init(_ scanned: ScannedEvent) {
        sessionID = scanned.sessionID
        sequence = scanned.sequence
        eventID = scanned.eventID
        occurredAt = scanned.occurredAt
        replyBy = scanned.replyBy
        source = .scanned(scanned)
    }

    private init(_ event: AddressChangeEvent) {
        sessionID = event.sessionID
        sequence = event.sequence
        eventID = event.eventID
        occurredAt = event.occurredAt
        replyBy = event.replyBy
        source = .decoded(event)
    }

    /// The whole event, for quoting.
    func event() -> AddressChangeEvent {
        switch source {
        case .scanned(let scanned): scanned.event()
        case .decoded(let event): event
        }
    }
}
