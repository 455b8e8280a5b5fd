#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import ShippingRules

/// The carts the scans of one batch have read, by session. A customer's cart does not change
/// while they pick addresses on the sheet, so a backlog holds the same cart, byte for byte, in
/// each of a session's events; most of those events are then dropped as superseded, and a
/// dropped event still has to be checked in full (a bad one goes to the dead letters). The scan
/// of a cart is most of an event's scan: where an event's cart is byte for byte the one its
/// session's last event in the batch had, the scanner takes that one's positions instead of
/// stepping through the same bytes again, and its lines' checks where the currency is the same.
/// Every rule that depends on more than the cart's bytes is still checked for each event.
///
/// Sessions are told apart by their number in the batch, which the caller gives each record
/// from its key (one hash a record, which the batch needed anyway); the session id is still
/// compared byte for byte before an entry is used.
public struct ScannedCarts: Sendable {
    struct Entry: Sendable {
        /// The document the cart was read from, and where its session id and the cart lie in it.
        let document: [UInt8]
        let session: ByteSpan
        let span: ByteSpan
        let cart: RawCart
        /// Every string of the cart was printable ASCII.
        let plain: Bool
        /// The currency in which its lines were checked and held, when they were.
        let linesHoldIn: Currency?
    }

    /// By session number: the index of its entry in `entries`, or -1.
    private var entryOfSession: [Int32]
    /// By session number: its records not read yet. A session's last record leaves nothing behind.
    private var recordsLeft: [Int32]
    private var entries: [Entry] = []
    /// Carts taken from an earlier event instead of scanned (tests read it).
    public private(set) var reused = 0

    /// For a batch whose records' sessions are numbered from 0, with this many records each.
    public init(recordsOfSession: [Int32]) {
        entryOfSession = Array(repeating: -1, count: recordsOfSession.count)
        recordsLeft = recordsOfSession
    }

    /// Counts a record of session number `session` as read; whether more of its records follow,
    /// so that its cart is worth keeping.
    mutating func read(session: Int) -> Bool {
        guard session < recordsLeft.count else { return false }
        recordsLeft[session] -= 1
        return recordsLeft[session] > 0
    }

    /// Hands `body` the entry of session number `session`, read where it lies, if it is for the
    /// session whose id is `id` and its last cart is the one the cursor is at; false when there is
    /// none. (Returning the entry copied it, a reference count up and down for each of its lists.)
    func withEntry(session: Int, id: UnsafeBufferPointer<UInt8>, at cursor: JSONTokenCursor,
                   _ body: (UnsafePointer<Entry>) -> Void) -> Bool {
        guard session < entryOfSession.count, entryOfSession[session] >= 0 else { return false }
        let index = Int(entryOfSession[session])
        return entries.withUnsafeBufferPointer { entries in
            let entry = entries.baseAddress.unsafelyUnwrapped + index
            let matches = entry.pointee.document.withUnsafeBufferPointer { document in
                let stored = UnsafeBufferPointer(rebasing: document[entry.pointee.session.range])
                return stored.count == id.count && memcmp(stored.baseAddress!, id.baseAddress!, id.count) == 0
                    && cursor.continues(with: UnsafeBufferPointer(rebasing: document[entry.pointee.span.range]))
            }
            if matches { body(entry) }
            return matches
        }
    }

    mutating func noteReused() { reused += 1 }

    /// Keeps `entry` as session number `session`'s last cart.
    mutating func remember(_ entry: Entry, session: Int) {
        guard session < entryOfSession.count else { return }
        if entryOfSession[session] >= 0 {
            entries[Int(entryOfSession[session])] = entry
        } else {
            entryOfSession[session] = Int32(entries.count)
            entries.append(entry)
        }
    }
}

/// Where a scan looks for its session's cart read before, and leaves its own: `ScannedCarts` for
/// a batch's records, `NoCarts` for an event read alone, whose scan then does none of it.
protocol CartMemory {
    /// False: nothing is looked up or kept, and the scan skips the bookkeeping altogether.
    static var remembers: Bool { get }
    func withEntry(session: Int, id: UnsafeBufferPointer<UInt8>, at cursor: JSONTokenCursor,
                   _ body: (UnsafePointer<ScannedCarts.Entry>) -> Void) -> Bool
    mutating func read(session: Int) -> Bool
    mutating func remember(_ entry: ScannedCarts.Entry, session: Int)
    mutating func noteReused()
}

extension ScannedCarts: CartMemory {
    static var remembers: Bool { true }
}

/// An event read on its own.
struct NoCarts: CartMemory {
    /// Not empty: an empty type's inout address is meaningless, and where a generic caller cannot
    /// see that it is empty ThreadSanitizer's instrumentation passes it on and crashes the process
    /// (swiftlang/swift#35579 covers only types known to be empty).
    private var unused: UInt8 = 0
    static var remembers: Bool { false }
    func withEntry(session: Int, id: UnsafeBufferPointer<UInt8>, at cursor: JSONTokenCursor,
                   _ body: (UnsafePointer<ScannedCarts.Entry>) -> Void) -> Bool { false }
    mutating func read(session: Int) -> Bool { false }
    mutating func remember(_ entry: ScannedCarts.Entry, session: Int) {}
    mutating func noteReused() {}
}
