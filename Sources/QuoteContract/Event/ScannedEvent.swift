import Foundation
import ShippingRules

/// An event read by the quick path: one pass over the bytes, no JSON tree, every rule of the
/// contract checked, and the fields kept as positions in the bytes. What the sequence check
/// needs (session, sequence, times) is made at once; the address and the cart only when the
/// event is quoted, so an event dropped as superseded never pays for its strings.
///
/// The scanner reads only what it is sure of: an escape in a string, a member the contract does
/// not name, a key given twice, a `null` where a value is required, or any broken rule make
/// `init` answer nil, and the bytes go to the full decoder, which accepts them or names the
/// field that is wrong. So it never accepts what the full decoder refuses, and what it accepts
/// builds the same event (the tests compare the two on every fixture, every prefix and every
/// one-byte change of an event).
public struct ScannedEvent: Sendable {
    public let session: SessionKey
    public let sequence: Int64
    public let eventID: String?
    public let occurredAt: Date
    public let replyBy: Date?
    private let bytes: [UInt8]
    private let raw: RawEvent
    private let currency: Currency
    /// Set when checking the rules already needed the whole event (non-ASCII text, a subtotal).
    /// Boxed: it is rare, and inline it made every scanned event twice as long.
    private let built: BuiltEvent?

    /// Reads a Kafka record's value; `key` must equal the session id (nil: the record had none).
    public init?(_ bytes: [UInt8], key: [UInt8]?) { self.init(bytes, checkingKey: true, key: key) }

    // Inlined, as the next: each level of delegation copied the scanned event (a few hundred bytes) once more.
    @inline(__always)
    init?(_ bytes: [UInt8], checkingKey: Bool, key: [UInt8]?) {
        var alone = NoCarts()
        self.init(bytes, checkingKey: checkingKey, key: key, session: nil, carts: &alone)
    }

    /// The same, for a record of a batch whose key's session has number `session` in `carts`:
    /// its cart is taken from there where the session's last cart in the batch is this one byte
    /// for byte, and left there for the session's next event.
    @inline(__always)
    init?<Carts: CartMemory>(_ bytes: [UInt8], checkingKey: Bool, key: [UInt8]?, session: Int?, carts: inout Carts) {
        guard let (raw, facts, built) = RawEvent.scan(bytes, checkingKey: checkingKey, key: key, session: session,
                                                      carts: &carts, { ($0, $1, $2) }) else { return nil }
        (self.bytes, self.raw, self.built, currency) = (bytes, raw, built, facts.currency)
        (self.session, sequence, eventID, occurredAt, replyBy) = (facts.session, facts.sequence, facts.eventID, facts.occurredAt, facts.replyBy)
    }

    /// The session id as the event spelt it, made now.
    public var sessionID: String { session.text }

    /// What the rules need of the event at `now`, made now: the worker's quoted event needs no
    /// more, and its ids and times are read already (making the whole event and copying these
    /// parts out of it was a reference count up and down for each of its strings).
    public func quoteRequest(now: Date) -> QuoteRequest {
        raw.quoteRequest(in: bytes, built: built, currency: currency, now: now)
    }

    /// The whole event, its strings and cart made now.
    public func event() -> AddressChangeEvent {
        raw.event(in: bytes, built: built, facts: Facts(session: session, sequence: sequence, eventID: eventID,
                                                      currency: currency, occurredAt: occurredAt, replyBy: replyBy))
    }
}

extension RawEvent {
    /// The scan: reads `bytes` and checks every rule; when they hold, hands `make` the positions,
    /// the facts and the event where checking it had to build it, and returns what `make` made
    /// (nil when the scan gives up). The caller's record is made from the positions where they lie:
    /// returned, the positions (a few hundred bytes) were copied at each of four hand-overs.
    /// Inlined: called for a batch's record, it copied the positions once more on the way out.
    @inline(__always)
    static func scan<Carts: CartMemory, Made>(_ bytes: [UInt8], checkingKey: Bool, key: [UInt8]?, session: Int?,
                                             carts: inout Carts, _ make: (consuming RawEvent, consuming Facts, BuiltEvent?) -> Made) -> Made? {
        let keep = session.map { carts.read(session: $0) } ?? false
        guard bytes.count <= EventLimits.maxBytes else { return nil }
        return bytes.withUnsafeBufferPointer { input -> Made? in
            var cursor = JSONTokenCursor(input)
            var reading = RawEvent()
            guard reading.read(&cursor, session: session, carts: &carts), cursor.atEnd() else { return nil }
            let raw = consume reading
            guard let facts = raw.facts(cursor, checkingKey: checkingKey, key: key) else { return nil }
            // The closure hands back only the verdict: the raw event is a few hundred bytes, and
            // each hand-over of it is a copy.
            let (holds, built): (Bool, BuiltEvent?) = raw.withCartCursor(cursor) { cartCursor in
                if raw.plain && raw.cart.subtotal == nil { return (raw.holdsWithoutBuilding(cursor, cartCursor, facts), nil) }
                let event = raw.build(cursor, cartCursor, facts)
                return (event != nil, event.map(BuiltEvent.init))
            }
            guard holds else { return nil }
            if Carts.remembers, let number = session, let id = raw.sessionID {
                if raw.reusedCart != nil {
                    carts.noteReused()
                } else if keep, let span = raw.cartSpan, raw.hasCart {
                    // The lines' rules passed in this currency only where the plain path checked them.
                    let checked = raw.plain && raw.cart.subtotal == nil ? facts.currency : nil
                    carts.remember(ScannedCarts.Entry(document: bytes, session: id, span: span, cart: raw.cart,
                                                      plain: raw.cartPlain, linesHoldIn: checked),
                                   session: number)
                }
            }
            return make(consume raw, consume facts, built)
        }
    }

    /// What the rules need of the event at `now`, from the bytes the positions were read in.
    func quoteRequest(in bytes: [UInt8], built: BuiltEvent?, currency: Currency, now: Date) -> QuoteRequest {
        if let built { return built.event.quoteRequest(now: now) }
        // The rules were checked by the scan; making the request cannot fail on bytes that passed them.
        return bytes.withUnsafeBufferPointer { input in
            let cursor = JSONTokenCursor(input)
            return withCartCursor(cursor) { request(cursor, $0, currency: currency, now: now)! }
        }
    }

    /// The whole event, its strings and cart made now.
    func event(in bytes: [UInt8], built: BuiltEvent?, facts: Facts) -> AddressChangeEvent {
        if let built { return built.event }
        // The rules were checked by the scan; building cannot fail on bytes that passed them.
        return bytes.withUnsafeBufferPointer { input in
            let cursor = JSONTokenCursor(input)
            return withCartCursor(cursor) { build(cursor, $0, facts)! }
        }
    }
}

/// An event the scan had to build whole to check it.
final class BuiltEvent: Sendable {
    let event: AddressChangeEvent
    init(_ event: AddressChangeEvent) { self.event = event }
}

/// The fields every event needs before it is quoted, made as soon as the event is read.
struct Facts {
    let session: SessionKey
    let sequence: Int64
    let eventID: String?
    let currency: Currency
    let occurredAt: Date
    let replyBy: Date?
}

/// Where each member's value lies in the bytes, before the contract's rules are applied.
struct RawEvent: Sendable {
    var versionIsOne = false
    var sessionID: ByteSpan?
    var sequence: Int64?
    var eventID: ByteSpan?
    var merchant: ByteSpan?
    var paymentMethodType: ByteSpan?
    var trigger: QuoteTrigger?
    var currency: ByteSpan?
    var address: RawAddress?
    /// The cart, when `hasCart`. Not an optional: a scanned cart was moved into one through the
    /// runtime's generic witnesses (some 100 instructions an event); this one is read in place.
    var cart = RawCart()
    var hasCart = false
    var selected: ByteSpan?
    var occurredAt: ByteSpan?
    var replyBy: ByteSpan?
    /// Every string of the document was printable ASCII.
    var plain = false
    /// Where the cart lies, when it was scanned here, and whether its strings were printable ASCII.
    var cartSpan: ByteSpan?
    var cartPlain = true
    /// The earlier document of the session whose identical cart `cart`'s positions point into,
    /// when the cart was taken from `ScannedCarts` instead of scanned.
    var reusedCart: [UInt8]?
    /// The currency the reused cart's lines were found to hold in (their amounts' currency and
    /// limits), so that they are not checked again for an event of that currency.
    var linesHoldIn: Currency?

    /// The members, by index.
    private static let keys = MemberNames([
        "version", "event_id", "session_id", "sequence", "merchant", "payment_method_type", "trigger", "currency",
        "shipping_address", "cart", "selected_shipping_method_id", "occurred_at", "reply_by",
    ])

    /// Every member absent, as the reader starts.
    init() {}

    /// Reads the members into this (new) record; false where the scan gives up. In place: a
    /// failable initializer built the record (a few hundred bytes) aside and copied it out, and
    /// its caller unwrapped it, three copies an event more.
    ///
    /// `carts` is only read, but passed `inout`: by value (or borrowed from the scan's own `inout`)
    /// the batch's carts were copied in, a retain and a release of each of their three lists an event.
    mutating func read<Carts: CartMemory>(_ c: inout JSONTokenCursor, session number: Int?, carts: inout Carts) -> Bool {
        let before = c.position
        if readCompact(&c, session: number, carts: &carts) {
            plain = c.onlyPrintableASCII && cartPlain
            return true
        }
        // Any other shape: from the start again, member by member.
        c.rewind(to: before)
        self = RawEvent()
        // Each member read where the walk hands it over: a value of the wrong kind gives up at once.
        guard c.take(UInt8(ascii: "{")) else { return false }
        var walk = MemberWalk()
        let names = RawEvent.keys   // once: a static read in the loop is a lazy-initialization check a member
        members: while true {
            let index = c.member(of: names, &walk)
            switch index {
            case MemberWalk.end: break members
            case 0:
                guard c.wholeNumber() == 1 else { return false }
                versionIsOne = true
            case 1, 2, 4, 5, 7, 10, 11, 12:
                // The texts read by one `string()`: inlined once, not eight times (a function past
                // a few hundred blocks no longer gets the member walk inlined).
                guard let range = c.string() else { return false }
                let span = ByteSpan(range)
                switch index {
                case 1: eventID = span
                case 2: sessionID = span
                case 4: merchant = span
                case 5: paymentMethodType = span
                case 7: currency = span
                case 10: selected = span
                case 11: occurredAt = span
                default: replyBy = span
                }
            case 3: guard let value = c.wholeNumber() else { return false }; sequence = value
            case 6:
                // payment_authorized (one per checkout, with a rule of its own) is left to the full decoder.
                guard let range = c.string() else { return false }
                if c.bytes(range, equal: "sheet_opened") { trigger = .sheetOpened }
                else if c.bytes(range, equal: "address_changed") { trigger = .addressChanged }
                else { return false }
            case 8: guard let value = RawAddress(&c) else { return false }; address = value
            case 9: guard readCart(&c, session: number, carts: &carts) else { return false }
            default: return false
            }
        }
        plain = c.onlyPrintableASCII && cartPlain
        return true
    }

    /// The members exactly as compact JSON writes an event, in the contract's order: each key with
    /// its punctuation one literal (`,"sequence":`), compared as a few constant words, where the
    /// member walk spent some 60 instructions a key looking it up among the names. False as soon
    /// as anything else comes (another order, a `null`, spaces, an unknown member), with members
    /// set and the cursor moved: `read` starts over from the beginning the general way.
    mutating func readCompact<Carts: CartMemory>(_ c: inout JSONTokenCursor, session number: Int?,
                                                         carts: inout Carts) -> Bool {
        guard c.take(exactly: #"{"version":1"#) else { return false }
        versionIsOne = true
        guard c.optionalText(after: #","event_id":"#, into: &eventID),
              c.take(exactly: #","session_id":""#), let session = c.stringAfterQuote() else { return false }
        sessionID = ByteSpan(session)
        guard c.take(exactly: #","sequence":"#), let value = c.wholeNumber() else { return false }
        sequence = value
        guard c.optionalText(after: #","merchant":"#, into: &merchant),
              c.take(exactly: #","payment_method_type":""#), let payment = c.stringAfterQuote() else { return false }
        paymentMethodType = ByteSpan(payment)
        // The trigger's value with its key: payment_authorized is left to the general way, as there.
        if c.take(exactly: #","trigger":"address_changed""#) { trigger = .addressChanged }
        else if c.take(exactly: #","trigger":"sheet_opened""#) { trigger = .sheetOpened }
        else { return false }
        guard c.take(exactly: #","currency":""#), let code = c.stringAfterQuote() else { return false }
        currency = ByteSpan(code)
        guard c.take(exactly: #","shipping_address":"#), let place = RawAddress(&c) else { return false }
        address = place
        guard c.take(exactly: #","cart":"#), readCart(&c, session: number, carts: &carts),
              c.optionalText(after: #","selected_shipping_method_id":"#, into: &selected),
              c.take(exactly: #","occurred_at":""#), let occurred = c.stringAfterQuote() else { return false }
        occurredAt = ByteSpan(occurred)
        return c.optionalText(after: #","reply_by":"#, into: &replyBy) && c.take(UInt8(ascii: "}"))
    }

    /// The cart member's value: the session's last cart in the batch where these are its bytes,
    /// else scanned. Out of line: inside `read` its size kept the member walk from being inlined there.
    @inline(never)
    private mutating func readCart<Carts: CartMemory>(_ c: inout JSONTokenCursor, session number: Int?, carts: inout Carts) -> Bool {
        guard Carts.remembers else {
            hasCart = cart.read(&c)
            return hasCart
        }
        // Only once the session is known (the contract's order puts it first).
        // The same bytes as the session's last cart: the same positions, and the same verdict.
        var skipped = 0
        if let number, let sessionID, carts.withEntry(session: number, id: c.slice(sessionID), at: c, { entry in
            cart = entry.pointee.cart
            hasCart = true
            cartPlain = entry.pointee.plain
            reusedCart = entry.pointee.document
            linesHoldIn = entry.pointee.linesHoldIn
            skipped = entry.pointee.span.count
        }) {
            c.skip(skipped)
            return true
        }
        let start = c.offset
        (hasCart, cartPlain) = c.noting { cart.read(&$0) }
        cartSpan = ByteSpan(start..<c.offset)
        return hasCart
    }

    /// A cursor over the bytes the cart's positions point into: the event's own, or those of the
    /// earlier event the cart was taken from.
    func withCartCursor<T>(_ cursor: JSONTokenCursor, _ body: (JSONTokenCursor) -> T) -> T {
        guard let reusedCart else { return body(cursor) }
        return reusedCart.withUnsafeBufferPointer { body(JSONTokenCursor($0)) }
    }

    /// The members every event must have, read and checked; nil when one is missing or broken.
    func facts(_ c: JSONTokenCursor, checkingKey: Bool, key: [UInt8]?) -> Facts? {
        guard versionIsOne, let sessionID, let sequence, sequence >= 1, let currencyRange = currency,
              let currency = Currency(utf8: c.slice(currencyRange)), paymentMethodType != nil, trigger != nil,
              address != nil, hasCart, let occurredAt,
              let occurred = RFC3339.parse(utf8: c.slice(occurredAt)) else { return nil }
        if checkingKey {
            guard let key, c.bytes(sessionID, equal: key) else { return nil }
        }
        var deadline: Date?
        if let replyBy {
            guard let parsed = RFC3339.parse(utf8: c.slice(replyBy)) else { return nil }
            deadline = parsed
        }
        // In a plain document the id is printable ASCII: a short one (a UUID) is kept in the key
        // itself, and no text is made for an event that is never answered.
        let session: SessionKey
        if plain {
            let id = c.slice(sessionID)
            guard !id.isEmpty, id.count <= EventLimits.maxSessionIDLength else { return nil }
            session = id.count <= SessionKey.inlineCapacity ? SessionKey(inlineASCII: id) : SessionKey(utf8: id)
        } else {
            guard let text = c.text(sessionID, plain: plain),
                  TextRule.isIdentifier(text, maxLength: EventLimits.maxSessionIDLength, plain: plain) else { return nil }
            session = SessionKey(text)
        }
        var event: String?
        if let eventID {
            guard let text = c.text(eventID, plain: plain),
                  TextRule.isIdentifier(text, maxLength: EventLimits.maxEventIDLength, plain: plain) else { return nil }
            event = text
        }
        return Facts(session: session, sequence: sequence, eventID: event, currency: currency,
                     occurredAt: occurred, replyBy: deadline)
    }

    /// The rest of the rules, for a document whose strings are all printable ASCII (so an id is
    /// valid when it is not empty, a label always) and that has no subtotal, without making a
    /// single string.
    func holdsWithoutBuilding(_ c: JSONTokenCursor, _ cartCursor: JSONTokenCursor, _ facts: Facts) -> Bool {
        guard let paymentMethodType, let address, !paymentMethodType.isEmpty,
              merchant.map({ !$0.isEmpty }) ?? true, selected.map({ !$0.isEmpty }) ?? true,
              address.countryIsValid(c) else { return false }
        guard hasCart else { return false }
        if linesHoldIn == facts.currency { return true }   // the same lines, already checked in this currency
        // Asked where it lies: bound by `let`, the cart was copied (its list retained).
        return cart.linesHold(cartCursor, currency: facts.currency)
    }

    /// The whole event, every rule checked as `EventFields` checks it; nil when one is broken.
    func build(_ c: JSONTokenCursor, _ cartCursor: JSONTokenCursor, _ facts: Facts) -> AddressChangeEvent? {
        guard let request = request(c, cartCursor, currency: facts.currency, now: facts.occurredAt) else { return nil }
        return AddressChangeEvent(eventID: facts.eventID, sessionID: facts.session.text, sequence: facts.sequence,
                                  merchant: request.merchant, paymentMethodType: request.paymentMethodType,
                                  trigger: request.trigger, currency: request.currency,
                                  shippingAddress: request.address, cart: request.cart,
                                  selectedShippingMethodID: request.selectedShippingMethodID,
                                  occurredAt: facts.occurredAt, replyBy: facts.replyBy)
    }

    /// What the rules need of the event, every rule of the fields in it checked as `build` checks
    /// them; nil when one is broken.
    func request(_ c: JSONTokenCursor, _ cartCursor: JSONTokenCursor, currency: Currency, now: Date) -> QuoteRequest? {
        guard let paymentMethodType, let trigger, let address, hasCart,
              let payment = c.knownText(paymentMethodType, plain: plain), TextRule.isIdentifier(payment, plain: plain),
              address.countryIsValid(c), let shippingAddress = address.address(c, plain: plain),
              let checkedCart = cart.cart(cartCursor, currency: currency, plain: plain) else { return nil }
        var merchantText: String?
        if let merchant {
            guard let text = c.text(merchant, plain: plain), TextRule.isIdentifier(text, plain: plain) else { return nil }
            merchantText = text
        }
        var selectedText: String?
        if let selected {
            guard let text = c.text(selected, plain: plain), TextRule.isIdentifier(text, plain: plain) else { return nil }
            selectedText = text
        }
        return QuoteRequest(merchant: merchantText, paymentMethodType: payment, trigger: trigger, currency: currency,
                            address: shippingAddress, cart: checkedCart, selectedShippingMethodID: selectedText, now: now)
    }
}

struct RawAddress: Sendable {
    var city: ByteSpan?
    var state: ByteSpan?
    var postalCode: ByteSpan?
    var country: ByteSpan?

    private static let keys = MemberNames(["city", "state", "postal_code", "country_code"])

    init?(_ c: inout JSONTokenCursor) {
        if let compact = RawAddress(compact: &c) {
            self = compact
            return
        }
        guard c.take(UInt8(ascii: "{")) else { return nil }
        var walk = MemberWalk()
        let names = RawAddress.keys   // once: a static read in the loop is a lazy-initialization check a member
        members: while true {
            let index = c.member(of: names, &walk)
            if index == MemberWalk.end { break members }
            guard index >= 0, let found = c.string() else { return nil }
            let range = ByteSpan(found)
            switch index {
            case 0: city = range
            case 1: state = range
            case 2: postalCode = range
            default: country = range
            }
        }
    }

    /// An address exactly as compact JSON writes a whole one, `{"city":…,"state":…,"postal_code":…,
    /// "country_code":…}`, every value a string: each key with its punctuation one run of bytes
    /// (`JSONTokenCursor.take(exactly:)`), where the member walk spent some 60 instructions a
    /// key. Nil, the cursor where it was, for any other shape (a member left out or `null`,
    /// another order, spaces), which `init` reads member by member.
    init?(compact c: inout JSONTokenCursor) {
        let before = c.position
        guard c.take(exactly: #"{"city":""#), let city = c.stringAfterQuote(), c.take(exactly: #","state":""#), let state = c.stringAfterQuote(),
              c.take(exactly: #","postal_code":""#), let postalCode = c.stringAfterQuote(),
              c.take(exactly: #","country_code":""#), let country = c.stringAfterQuote(), c.take(UInt8(ascii: "}")) else {
            c.rewind(to: before)
            return nil
        }
        (self.city, self.state, self.postalCode, self.country) = (ByteSpan(city), ByteSpan(state), ByteSpan(postalCode), ByteSpan(country))
    }

    /// Absent, or two upper-case letters.
    func countryIsValid(_ c: JSONTokenCursor) -> Bool {
        guard let country else { return true }
        let bytes = c.slice(country)
        return bytes.count == 2 && bytes.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    func address(_ c: JSONTokenCursor, plain: Bool) -> PartialAddress? {
        func text(_ range: ByteSpan?, known: Bool = false) -> String?? {
            guard let range else { return .some(nil) }
            return (known ? c.knownText(range, plain: plain) : c.text(range, plain: plain)).map { .some($0) }
        }
        guard let city = text(city), let state = text(state, known: true), let postalCode = text(postalCode),
              let country = text(country, known: true) else { return nil }
        return PartialAddress(city: city, state: state, postalCode: postalCode, countryCode: country)
    }
}

struct RawCart: Sendable {
    /// Items and discounts in one list, each kind in the order read: one allocation a cart, not
    /// two (a worker's profile at saturation spent a sixth of its time in malloc and free).
    private var lines: [RawLine] = []
    /// Where each kind lies in `lines`, as plain numbers (a cart holds at most `Cart.maxLines` of each).
    private var itemBounds: (start: UInt16, end: UInt16) = (0, 0)
    private var discountBounds: (start: UInt16, end: UInt16) = (0, 0)
    var subtotal: RawAmount?

    var items: ArraySlice<RawLine> { lines[Int(itemBounds.start)..<Int(itemBounds.end)] }
    var discounts: ArraySlice<RawLine> { lines[Int(discountBounds.start)..<Int(discountBounds.end)] }

    private static let keys = MemberNames(["items", "discounts", "subtotal"])

    /// No lines, as a reader starts.
    init() {}

    /// Reads a cart into this (empty) one; false where the scan gives up.
    mutating func read(_ c: inout JSONTokenCursor) -> Bool {
        let before = c.position
        if readCompact(&c) { return true }
        // Any other shape: from the start again, member by member (the list's buffer kept).
        c.rewind(to: before)
        lines.removeAll(keepingCapacity: true)
        (itemBounds, discountBounds, subtotal) = ((0, 0), (0, 0), nil)
        guard c.take(UInt8(ascii: "{")) else { return false }
        var walk = MemberWalk()
        let names = RawCart.keys   // once: a static read in the loop is a lazy-initialization check a member
        members: while true {
            switch c.member(of: names, &walk) {
            case MemberWalk.end: break members
            case 0: guard let bounds = RawCart.lines(&c, isItem: true, into: &lines) else { return false }; itemBounds = bounds
            case 1: guard let bounds = RawCart.lines(&c, isItem: false, into: &lines) else { return false }; discountBounds = bounds
            case 2: guard let amount = RawAmount(&c) else { return false }; subtotal = amount
            default: return false
            }
        }
        return true
    }

    /// A cart exactly as compact JSON writes one, `{"items":[…],"discounts":[…]}` and perhaps a
    /// subtotal last, each key a literal (see `RawEvent.readCompact`); false, lines read and the
    /// cursor moved, for any other shape.
    mutating func readCompact(_ c: inout JSONTokenCursor) -> Bool {
        guard c.take(exactly: #"{"items":"#), let items = RawCart.lines(&c, isItem: true, into: &lines),
              c.take(exactly: #","discounts":"#), let discounts = RawCart.lines(&c, isItem: false, into: &lines) else { return false }
        (itemBounds, discountBounds) = (items, discounts)
        if c.take(exactly: #","subtotal":"#), !c.takeNull() {   // `null`: absent, as for the event's optional members
            guard let amount = RawAmount(&c) else { return false }
            subtotal = amount
        }
        return c.take(UInt8(ascii: "}"))
    }

    /// Reads an array of lines onto the end of `lines`; where they went, or nil.
    private static func lines(_ c: inout JSONTokenCursor, isItem: Bool, into lines: inout [RawLine]) -> (start: UInt16, end: UInt16)? {
        guard c.take(UInt8(ascii: "[")) else { return nil }
        let start = lines.count
        if lines.capacity == 0 { lines.reserveCapacity(4) }   // a cart of a few lines grows its list once, not three times
        var first = true
        while true {
            guard let more = c.element(first: first) else { return nil }
            first = false
            guard more else { return (UInt16(start), UInt16(lines.count)) }
            guard lines.count - start < Cart.maxLines else { return nil }
            lines.append(RawLine())
            guard lines[lines.count &- 1].read(&c, isItem: isItem) else { return nil }
        }
    }

    /// The numeric rules of every item and discount, and an item's shipping class's length, for
    /// a plain document (see `RawEvent.holdsWithoutBuilding`).
    func linesHold(_ c: JSONTokenCursor, currency: Currency) -> Bool {
        lines.withUnsafeBufferPointer { lines in
            for i in Int(itemBounds.start)..<Int(itemBounds.end) {
                guard lines[i].checkedItem(c, currency: currency) != nil,
                      lines[i].shippingClass.map({ $0.count <= EventLimits.maxShippingClassLength }) ?? true else { return false }
            }
            for i in Int(discountBounds.start)..<Int(discountBounds.end) where lines[i].checkedDiscount(c, currency: currency) == nil {
                return false
            }
            return true
        }
    }

    func cart(_ c: JSONTokenCursor, currency: Currency, plain: Bool) -> Cart? {
        // The lines are read through the buffer and each item or discount is appended where it
        // is made: a `for … in` over the slice copied each raw line, and an optional result
        // copied each item once more (a retain and a release of each of its strings).
        let built = lines.withUnsafeBufferPointer { lines -> (items: [CartItem], discounts: [Discount])? in
            var cartItems: [CartItem] = []
            cartItems.reserveCapacity(Int(itemBounds.end - itemBounds.start))
            for i in Int(itemBounds.start)..<Int(itemBounds.end) {
                guard lines[i].appendItem(to: &cartItems, c, currency: currency, plain: plain) else { return nil }
            }
            var cartDiscounts: [Discount] = []
            cartDiscounts.reserveCapacity(Int(discountBounds.end - discountBounds.start))
            for i in Int(discountBounds.start)..<Int(discountBounds.end) {
                guard lines[i].appendDiscount(to: &cartDiscounts, c, currency: currency, plain: plain) else { return nil }
            }
            return (cartItems, cartDiscounts)
        }
        guard let (cartItems, cartDiscounts) = built else { return nil }
        var total: Money?
        if let subtotal {
            guard let amount = subtotal.money(c, currency: currency), !amount.isNegative else { return nil }
            if !cartItems.isEmpty && amount != cartItems.map(\.lineAmount).sum(in: currency) { return nil }
            total = amount
        }
        return Cart(items: cartItems, discounts: cartDiscounts, subtotal: total)
    }
}

/// A cart item or a discount: the members both have, and the item's own.
struct RawLine: Sendable {
    var id: ByteSpan?
    var label: ByteSpan?
    var quantity: Int64?
    var amount: RawAmount?
    var taxCategory: ByteSpan?
    var weightGrams: Int64?
    var shippingClass: ByteSpan?
    var dimensions: RawDimensions?

    private static let itemKeys = MemberNames(["id", "label", "quantity", "unit_amount", "tax_category", "weight_grams",
                                                   "shipping_class", "dimensions_mm"])
    private static let discountKeys = MemberNames(["id", "label", "amount"])

    /// A line with every member absent, as a reader starts one.
    init() {}

    /// Reads a line into this (new) one; false where the scan gives up. In place, where the cart's
    /// list holds it: a line made aside (121 bytes) was copied out of its optional and into the list.
    mutating func read(_ c: inout JSONTokenCursor, isItem: Bool) -> Bool {
        isItem ? read(item: &c) : read(discount: &c)
    }

    /// Each kind read by an object of its own names: with the names chosen at run time (and a
    /// discount's indices mapped onto an item's), every member asked which list it was in.
    private mutating func read(item c: inout JSONTokenCursor) -> Bool {
        if readCompactItem(&c) { return true }
        self = RawLine()   // whatever the quick reading set before it gave up
        guard c.take(UInt8(ascii: "{")) else { return false }
        var walk = MemberWalk()
        let names = RawLine.itemKeys   // once: a static read in the loop is a lazy-initialization check a member
        members: while true {
            let index = c.member(of: names, &walk)
            switch index {
            case MemberWalk.end: break members
            case 0, 1, 4, 6:
                // One `string()` and one `wholeNumber()` for all the texts and counts (see `RawEvent`).
                guard let range = c.string() else { return false }
                let span = ByteSpan(range)
                switch index {
                case 0: id = span
                case 1: label = span
                case 4: taxCategory = span
                default: shippingClass = span
                }
            case 2, 5:
                guard let value = c.wholeNumber() else { return false }
                if index == 2 { quantity = value } else { weightGrams = value }
            case 3: guard let value = RawAmount(&c) else { return false }; amount = value
            case 7: guard let size = RawDimensions(&c) else { return false }; dimensions = size
            default: return false
            }
        }
        return true
    }

    private mutating func read(discount c: inout JSONTokenCursor) -> Bool {
        if readCompactDiscount(&c) { return true }
        self = RawLine()
        guard c.take(UInt8(ascii: "{")) else { return false }
        var walk = MemberWalk()
        let names = RawLine.discountKeys   // once: a static read in the loop is a lazy-initialization check a member
        members: while true {
            let index = c.member(of: names, &walk)
            switch index {
            case MemberWalk.end: break members
            case 0, 1:
                guard let range = c.string() else { return false }
                if index == 0 { id = ByteSpan(range) } else { label = ByteSpan(range) }
            case 2: guard let value = RawAmount(&c) else { return false }; amount = value
            default: return false
            }
        }
        return true
    }

    /// An item as compact JSON writes one: `id`, `label`, `quantity` and `unit_amount` in this
    /// order, then any of `tax_category`, `weight_grams`, `shipping_class` and `dimensions_mm` in
    /// this order, each key with its punctuation one run of bytes (`take(exactly:)`; the member
    /// walk spent some 60 instructions a key), read into this (empty) line. False, the cursor where it was, for
    /// any other shape (another order, a `null`, spaces, a key given twice or unknown), which
    /// `read` then reads member by member. In place: a line returned from a reader of its own was
    /// copied (121 bytes) through an optional.
    mutating func readCompactItem(_ c: inout JSONTokenCursor) -> Bool {
        let before = c.position
        guard c.take(exactly: #"{"id":""#), let id = c.stringAfterQuote(),
              c.take(exactly: #","label":""#), let label = c.stringAfterQuote(),
              c.take(exactly: #","quantity":"#), let quantity = c.wholeNumber(),
              c.take(exactly: #","unit_amount":"#), let amount = RawAmount(&c) else {
            c.rewind(to: before)
            return false
        }
        (self.id, self.label, self.quantity, self.amount) = (ByteSpan(id), ByteSpan(label), quantity, amount)
        if c.take(exactly: #","tax_category":""#) {
            guard let range = c.stringAfterQuote() else { c.rewind(to: before); return false }
            taxCategory = ByteSpan(range)
        }
        if c.take(exactly: #","weight_grams":"#) {
            guard let value = c.wholeNumber() else { c.rewind(to: before); return false }
            weightGrams = value
        }
        if c.take(exactly: #","shipping_class":""#) {
            guard let range = c.stringAfterQuote() else { c.rewind(to: before); return false }
            shippingClass = ByteSpan(range)
        }
        if c.take(exactly: #","dimensions_mm":"#) {
            guard let size = RawDimensions(&c) else { c.rewind(to: before); return false }
            dimensions = size
        }
        guard c.take(UInt8(ascii: "}")) else { c.rewind(to: before); return false }
        return true
    }

    /// A discount as compact JSON writes one, `{"id":…,"label":…,"amount":…}`; false, the cursor
    /// where it was, for any other shape (see `readCompactItem`).
    mutating func readCompactDiscount(_ c: inout JSONTokenCursor) -> Bool {
        let before = c.position
        guard c.take(exactly: #"{"id":""#), let id = c.stringAfterQuote(),
              c.take(exactly: #","label":""#), let label = c.stringAfterQuote(),
              c.take(exactly: #","amount":"#), let amount = RawAmount(&c),
              c.take(UInt8(ascii: "}")) else {
            c.rewind(to: before)
            return false
        }
        (self.id, self.label, self.amount) = (ByteSpan(id), ByteSpan(label), amount)
        return true
    }

    /// An item's numeric rules (its texts are checked by the caller): the unit amount, or nil.
    func checkedItem(_ c: JSONTokenCursor, currency: Currency) -> Money? {
        guard let id, label != nil, let quantity, let amount, !id.isEmpty, (1...EventLimits.maxQuantity).contains(quantity),
              taxCategory.map({ !$0.isEmpty }) ?? true,
              weightGrams.map({ (0...EventLimits.maxWeightGrams).contains($0) }) ?? true,
              shippingClass.map({ !$0.isEmpty }) ?? true, dimensions?.isWithinLimits ?? true,
              let unitAmount = amount.money(c, currency: currency), !unitAmount.isNegative else { return nil }
        let (line, overflow) = unitAmount.minorUnits.multipliedReportingOverflow(by: quantity)
        guard !overflow, line <= Money.maxMinorUnits else { return nil }
        return unitAmount
    }

    func checkedDiscount(_ c: JSONTokenCursor, currency: Currency) -> Money? {
        guard let id, label != nil, let amount, !id.isEmpty,
              let money = amount.money(c, currency: currency), money.minorUnits <= 0 else { return nil }
        return money
    }

    /// The line as a cart item, appended to `items`; false when a rule does not hold.
    func appendItem(to items: inout [CartItem], _ c: JSONTokenCursor, currency: Currency, plain: Bool) -> Bool {
        guard let unitAmount = checkedItem(c, currency: currency), let id, let label, let quantity,
              let idText = c.text(id, plain: plain), TextRule.isIdentifier(idText, plain: plain),
              let labelText = c.text(label, plain: plain), TextRule.isLabel(labelText, plain: plain) else { return false }
        var category: String?
        if let taxCategory {
            guard let text = c.text(taxCategory, plain: plain), TextRule.isIdentifier(text, plain: plain) else { return false }
            category = text
        }
        var handling: String?
        if let shippingClass {
            guard let text = c.text(shippingClass, plain: plain),
                  TextRule.isIdentifier(text, maxLength: EventLimits.maxShippingClassLength, plain: plain) else { return false }
            handling = text
        }
        items.append(CartItem(id: idText, label: labelText, quantity: Int(quantity), unitAmount: unitAmount,
                              taxCategory: category, weightGrams: weightGrams.map { Int($0) },
                              shippingClass: handling, dimensions: dimensions?.size))
        return true
    }

    /// The line as a discount, appended to `discounts`; false when a rule does not hold.
    func appendDiscount(to discounts: inout [Discount], _ c: JSONTokenCursor, currency: Currency, plain: Bool) -> Bool {
        guard let money = checkedDiscount(c, currency: currency), let id, let label,
              let idText = c.text(id, plain: plain), TextRule.isIdentifier(idText, plain: plain),
              let labelText = c.text(label, plain: plain), TextRule.isLabel(labelText, plain: plain) else { return false }
        discounts.append(Discount(id: idText, label: labelText, amount: money))
        return true
    }
}

/// `{ "length": …, "width": …, "height": … }`: a unit's size, whole numbers as read. Three
/// plain fields, not an array, so that a cart line's record stays plain data (copied without
/// reference counting).
struct RawDimensions: Sendable {
    let length: Int64
    let width: Int64
    let height: Int64

    private static let keys = MemberNames(["length", "width", "height"])

    init?(_ c: inout JSONTokenCursor) {
        var length: Int64?, width: Int64?, height: Int64?
        guard c.take(UInt8(ascii: "{")) else { return nil }
        var walk = MemberWalk()
        let names = RawDimensions.keys   // once: a static read in the loop is a lazy-initialization check a member
        members: while true {
            let index = c.member(of: names, &walk)
            if index == MemberWalk.end { break members }
            guard index >= 0, let value = c.wholeNumber() else { return nil }
            switch index {
            case 0: length = value
            case 1: width = value
            default: height = value
            }
        }
        // A side missing or null is the full decoder's to name.
        guard let length, let width, let height else { return nil }
        (self.length, self.width, self.height) = (length, width, height)
    }

    var isWithinLimits: Bool {
        let limits = 0...EventLimits.maxDimensionMillimetres
        return limits.contains(length) && limits.contains(width) && limits.contains(height)
    }

    var size: ItemDimensions? {
        guard isWithinLimits else { return nil }
        return ItemDimensions(length: Int(length), width: Int(width), height: Int(height))
    }
}
