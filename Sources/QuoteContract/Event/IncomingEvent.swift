import Foundation
import ShippingRules

/// A record's value read as an address-change event: what the sequence check and the deadline
/// need, read at once, and the whole event (address, cart) made only for the events that are
/// quoted. Most records of a backlog are dropped as superseded, and never pay for their strings.
///
/// This is the one place that decides between the single-pass scanner (`RawEvent.scan`, the common
/// case) and the full decoder (the authority, which names the field of a bad event).
///
/// One object, not a struct: a worker's batch copies each event a few times on its way (read,
/// conflated, answered), and an event inline (its ids and the scanned positions or the decoded
/// event behind them) made each copy several reference counts where one does.
///
/// What the event was read by is its subclass: the scanner (`Scanned`, its positions) or, where
/// it passed the event on, the full decoder (`Decoded`). Each holds its reading as a constant
/// that is read where it lies: kept as an optional, the scanned event (a few hundred bytes) was
/// copied out of it on every quote. Only those two are ever made (the initializer is private to
/// this file). Sendable as the final class was: every stored property is a constant of a
/// Sendable type (a class that can be subclassed cannot say so to the compiler).
public class IncomingEvent: @unchecked Sendable {
    /// The session, as the sequence check tells sessions apart.
    public let session: SessionKey
    public let sequence: Int64
    public let eventID: String?
    public let occurredAt: Date
    public let replyBy: Date?

    /// Reads a Kafka record's value, checking every rule of the contract's event table; `key` must
    /// equal the session id (nil: the record had none). A refused event goes to the dead letters.
    public static func read(_ value: [UInt8], key: [UInt8]?) -> Result<IncomingEvent, EventRejection> {
        read(value, checkingKey: true, key: key)
    }

    /// The same for a record of a batch whose key's session has number `session` in `carts`, which
    /// holds the carts of the batch's events read before it: a session's cart, the same in each of
    /// its events, is scanned once a batch.
    public static func read(_ value: [UInt8], key: [UInt8]?, session: Int?,
                            carts: inout ScannedCarts) -> Result<IncomingEvent, EventRejection> {
        read(value, checkingKey: true, key: key, session: session, carts: &carts)
    }

    static func read(_ value: [UInt8], checkingKey: Bool, key: [UInt8]?) -> Result<IncomingEvent, EventRejection> {
        var alone = NoCarts()
        return read(value, checkingKey: checkingKey, key: key, session: nil, carts: &alone)
    }

    private static func read<Carts: CartMemory>(_ value: [UInt8], checkingKey: Bool, key: [UInt8]?, session: Int?,
                                                carts: inout Carts) -> Result<IncomingEvent, EventRejection> {
        // The object is made from the scan's positions where they lie (see `RawEvent.scan`).
        if let scanned = RawEvent.scan(value, checkingKey: checkingKey, key: key, session: session, carts: &carts, {
            Scanned(bytes: value, raw: $0, facts: $1, built: $2)
        }) {
            return .success(scanned)
        }
        // The quick path passed it on: the full decoder reads it or says which field is wrong.
        return AddressChangeEvent.decodeThoroughly(value, checkingKey: checkingKey, key: key).map { Decoded($0) }
    }

    fileprivate init(session: SessionKey, sequence: Int64, eventID: String?, occurredAt: Date, replyBy: Date?) {
        (self.session, self.sequence, self.eventID, self.occurredAt, self.replyBy) = (session, sequence, eventID, occurredAt, replyBy)
    }

    /// The session id as the event spelt it, made now: only an answered event needs it as text
    /// (its reply), and its caller asks once.
    public var sessionID: String { session.text }

    /// What the rules need to quote the event at `now` (the worker's path: only the request is made).
    public func quoteRequest(now: Date) -> QuoteRequest { preconditionFailure("only Scanned and Decoded are made") }

    /// The whole event.
    public func event() -> AddressChangeEvent { preconditionFailure("only Scanned and Decoded are made") }

    /// An event the scanner read: its bytes and where its values lie in them. The ids and times
    /// are kept once, in the base (a `ScannedEvent` inside held a second reference to each).
    private final class Scanned: IncomingEvent, @unchecked Sendable {
        let bytes: [UInt8]
        let raw: RawEvent
        let currency: Currency
        let built: BuiltEvent?

        init(bytes: [UInt8], raw: consuming RawEvent, facts: consuming Facts, built: BuiltEvent?) {
            (self.bytes, self.raw, self.currency, self.built) = (bytes, raw, facts.currency, built)
            super.init(session: facts.session, sequence: facts.sequence, eventID: facts.eventID,
                       occurredAt: facts.occurredAt, replyBy: facts.replyBy)
        }

        override func quoteRequest(now: Date) -> QuoteRequest {
            raw.quoteRequest(in: bytes, built: built, currency: currency, now: now)
        }

        override func event() -> AddressChangeEvent {
            raw.event(in: bytes, built: built, facts: Facts(session: session, sequence: sequence, eventID: eventID,
                                                          currency: currency, occurredAt: occurredAt, replyBy: replyBy))
        }
    }

    /// An event the full decoder read.
    private final class Decoded: IncomingEvent, @unchecked Sendable {
        let decoded: AddressChangeEvent

        init(_ e: AddressChangeEvent) {
            decoded = e
            super.init(session: SessionKey(e.sessionID), sequence: e.sequence, eventID: e.eventID, occurredAt: e.occurredAt, replyBy: e.replyBy)
        }

        override func quoteRequest(now: Date) -> QuoteRequest { decoded.quoteRequest(now: now) }
        override func event() -> AddressChangeEvent { decoded }
    }
}
