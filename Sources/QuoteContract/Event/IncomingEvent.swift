import Foundation
import ShippingRules

/// A record's value read as an address-change event: what the sequence check and the deadline
/// need, read at once, and the whole event (address, cart) made only for the events that are
/// quoted. Most records of a backlog are dropped as superseded, and never pay for their strings.
///
/// This is the one place that decides between the single-pass scanner (`ScannedEvent`, the common
/// case) and the full decoder (the authority, which names the field of a bad event).
///
/// One object, not a struct: a worker's batch copies each event a few times on its way (read,
/// conflated, answered), and an event inline (two strings and the scanned positions or the
/// decoded event behind them) made each copy several reference counts where one does.
public final class IncomingEvent: Sendable {
    public let sessionID: String
    public let sequence: Int64
    public let eventID: String?
    public let occurredAt: Date
    public let replyBy: Date?
    /// What the event was read by: the scanner (its positions) or, where it passed the event on,
    /// the full decoder. One of the two; two optionals rather than an enum's cases so that each
    /// is read where it lies (through optional chaining): matching a case copied the whole
    /// scanned event out (a few hundred bytes and their reference counts) on every quote.
    private let scanned: ScannedEvent?
    private let decoded: AddressChangeEvent?

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
        if let scanned = ScannedEvent(value, checkingKey: checkingKey, key: key, session: session, carts: &carts) {
            return .success(IncomingEvent(scanned: scanned))
        }
        // The quick path passed it on: the full decoder reads it or says which field is wrong.
        return AddressChangeEvent.decodeThoroughly(value, checkingKey: checkingKey, key: key).map { IncomingEvent(decoded: $0) }
    }

    private init(scanned s: ScannedEvent) {
        (sessionID, sequence, eventID, occurredAt, replyBy) = (s.sessionID, s.sequence, s.eventID, s.occurredAt, s.replyBy)
        scanned = s
        decoded = nil
    }

    private init(decoded e: AddressChangeEvent) {
        (sessionID, sequence, eventID, occurredAt, replyBy) = (e.sessionID, e.sequence, e.eventID, e.occurredAt, e.replyBy)
        scanned = nil
        decoded = e
    }

    /// What the rules need to quote the event at `now` (the worker's path: only the request is made).
    public func quoteRequest(now: Date) -> QuoteRequest {
        // Asked through optional chaining, the scanned event is read where it lies:
        // `unsafelyUnwrapped` handed out a copy of it (a retain and a release of each of its lists).
        if let request = scanned?.quoteRequest(now: now) { return request }
        return decoded.unsafelyUnwrapped.quoteRequest(now: now)
    }

    /// The whole event.
    public func event() -> AddressChangeEvent {
        if let event = scanned?.event() { return event }
        return decoded.unsafelyUnwrapped
    }
}
