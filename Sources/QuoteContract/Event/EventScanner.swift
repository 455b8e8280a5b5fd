import Foundation
import ShippingRules

/// The quick reading of an ordinary event: one pass over the bytes into the event's fields, no
/// JSON tree and no string for any key. It reads only what it is sure of: an escape in a string,
/// a member the contract does not name, a key given twice, a `null` where a value is required,
/// or any broken rule makes it answer nil, and `AddressChangeEvent.decode` reads the event again
/// with the full decoder, which accepts it or names the field that is wrong. So it never accepts
/// what the full decoder refuses, and what it accepts decodes to the same event (the tests
/// compare the two on every fixture and on a generated corpus).
///
/// Why it exists: the worker decodes every event it fetches, including those it then drops as
/// superseded, and the tree reader spent most of the worker's time on allocations.
enum EventScanner {
    static func event(_ input: UnsafeBufferPointer<UInt8>, checkingKey: Bool, key: [UInt8]?) -> AddressChangeEvent? {
        guard input.count <= EventLimits.maxBytes else { return nil }
        var cursor = JSONTokenCursor(input)
        guard let raw = RawEvent(&cursor), cursor.atEnd() else { return nil }
        return raw.event(checkingKey: checkingKey, key: key, cursor: cursor)
    }
}

/// What the members of each object held, before the contract's rules are applied.
private struct RawEvent {
    var versionIsOne = false
    var sessionID: String?
    var sessionIDBytes: Range<Int>?
    var sequence: Int64?
    var eventID: String?
    var merchant: String?
    var paymentMethodType: String?
    var trigger: QuoteTrigger?
    var currency: String?
    var address: PartialAddress?
    var cart: RawCart?
    var selected: String?
    var occurredAt: Range<Int>?
    var replyBy: Range<Int>?

    /// Keys in the order of the seen-bit each one takes.
    private static let keys: [StaticString] = [
        "version", "event_id", "session_id", "sequence", "merchant", "payment_method_type", "trigger", "currency",
        "shipping_address", "cart", "selected_shipping_method_id", "occurred_at", "reply_by",
    ]

    init?(_ c: inout JSONTokenCursor) {
        guard c.take(UInt8(ascii: "{")) else { return nil }
        var seen: UInt32 = 0
        var first = true
        while true {
            guard let member = c.member(first: first) else { return nil }
            first = false
            guard case .key(let key) = member else { break }
            guard let index = RawEvent.keys.firstIndex(where: { c.bytes(key, equal: $0) }) else { return nil }
            let bit: UInt32 = 1 << UInt32(index)
            guard seen & bit == 0 else { return nil }
            seen |= bit
            if c.takeNull() { continue }
            switch index {
            case 0:
                guard let number = c.number(), c.bytes(number, equal: "1") else { return nil }
                versionIsOne = true
            case 1: guard let text = c.stringValue() else { return nil }; eventID = text
            case 2:
                guard let (range, ascii) = c.string(), let text = c.text(range, ascii: ascii) else { return nil }
                sessionID = text
                sessionIDBytes = range
            case 3:
                guard let number = c.number(), let value = c.wholeNumber(number) else { return nil }
                sequence = value
            case 4: guard let text = c.stringValue() else { return nil }; merchant = text
            case 5: guard let text = c.stringValue() else { return nil }; paymentMethodType = text
            case 6:
                guard let text = c.stringValue(), let value = QuoteTrigger(rawValue: text) else { return nil }
                trigger = value
            case 7: guard let text = c.stringValue() else { return nil }; currency = text
            case 8: guard let value = RawEvent.address(&c) else { return nil }; address = value
            case 9: guard let value = RawCart(&c) else { return nil }; cart = value
            case 10: guard let text = c.stringValue() else { return nil }; selected = text
            case 11: guard let (range, _) = c.string() else { return nil }; occurredAt = range
            default: guard let (range, _) = c.string() else { return nil }; replyBy = range
            }
        }
    }

    private static func address(_ c: inout JSONTokenCursor) -> PartialAddress? {
        guard c.take(UInt8(ascii: "{")) else { return nil }
        var city: String?, state: String?, postalCode: String?, country: String?
        var seen: UInt8 = 0
        var first = true
        while true {
            guard let member = c.member(first: first) else { return nil }
            first = false
            guard case .key(let key) = member else { break }
            let index: Int
            if c.bytes(key, equal: "city") { index = 0 }
            else if c.bytes(key, equal: "state") { index = 1 }
            else if c.bytes(key, equal: "postal_code") { index = 2 }
            else if c.bytes(key, equal: "country_code") { index = 3 }
            else { return nil }
            guard seen & (1 << index) == 0 else { return nil }
            seen |= 1 << index
            if c.takeNull() { continue }
            guard let text = c.stringValue() else { return nil }
            switch index {
            case 0: city = text
            case 1: state = text
            case 2: postalCode = text
            default: country = text
            }
        }
        return PartialAddress(city: city, state: state, postalCode: postalCode, countryCode: country)
    }

    /// The contract's rules, as `EventFields` applies them; any broken one gives nil.
    func event(checkingKey: Bool, key: [UInt8]?, cursor: JSONTokenCursor) -> AddressChangeEvent? {
        guard versionIsOne, let sessionID, let sessionIDBytes, let sequence, sequence >= 1,
              let currencyCode = currency, let currency = Currency(code: currencyCode),
              let paymentMethodType, let trigger, let address, let cart, let occurredAt else { return nil }
        if checkingKey {
            guard let key, cursor.bytes(sessionIDBytes, equal: key) else { return nil }
        }
        let texts = TextRules(plain: cursor.onlyPrintableASCII)
        guard texts.isIdentifier(sessionID, maxLength: EventLimits.maxSessionIDLength),
              eventID.map({ texts.isIdentifier($0, maxLength: EventLimits.maxEventIDLength) }) ?? true,
              merchant.map({ texts.isIdentifier($0) }) ?? true,
              selected.map({ texts.isIdentifier($0) }) ?? true,
              texts.isIdentifier(paymentMethodType) else { return nil }
        if let country = address.countryCode {
            let bytes = country.utf8
            guard bytes.count == 2, bytes.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return nil }
        }
        guard let checkedCart = cart.cart(currency: currency, cursor: cursor, texts: texts),
              let occurred = RFC3339.parse(utf8: cursor.slice(occurredAt)) else { return nil }
        var deadline: Date?
        if let replyBy {
            guard let parsed = RFC3339.parse(utf8: cursor.slice(replyBy)) else { return nil }
            deadline = parsed
        }
        return AddressChangeEvent(eventID: eventID, sessionID: sessionID, sequence: sequence, merchant: merchant,
                                  paymentMethodType: paymentMethodType, trigger: trigger, currency: currency,
                                  shippingAddress: address, cart: checkedCart, selectedShippingMethodID: selected,
                                  occurredAt: occurred, replyBy: deadline)
    }
}

private struct RawCart {
    var items: [RawLine] = []
    var discounts: [RawLine] = []
    var subtotal: RawAmount?

    init?(_ c: inout JSONTokenCursor) {
        guard c.take(UInt8(ascii: "{")) else { return nil }
        var seen: UInt8 = 0
        var first = true
        while true {
            guard let member = c.member(first: first) else { return nil }
            first = false
            guard case .key(let key) = member else { break }
            let index: UInt8
            if c.bytes(key, equal: "items") { index = 0 }
            else if c.bytes(key, equal: "discounts") { index = 1 }
            else if c.bytes(key, equal: "subtotal") { index = 2 }
            else { return nil }
            guard seen & (1 << index) == 0 else { return nil }
            seen |= 1 << index
            if c.takeNull() { continue }
            switch index {
            case 0: guard let lines = RawCart.lines(&c, amountKey: "unit_amount") else { return nil }; items = lines
            case 1: guard let lines = RawCart.lines(&c, amountKey: "amount") else { return nil }; discounts = lines
            default: guard let amount = RawAmount(&c) else { return nil }; subtotal = amount
            }
        }
    }

    private static func lines(_ c: inout JSONTokenCursor, amountKey: StaticString) -> [RawLine]? {
        guard c.take(UInt8(ascii: "[")) else { return nil }
        var lines: [RawLine] = []
        var first = true
        while true {
            guard let more = c.element(first: first) else { return nil }
            first = false
            guard more else { return lines }
            guard lines.count < Cart.maxLines, let line = RawLine(&c, amountKey: amountKey) else { return nil }
            lines.append(line)
        }
    }

    func cart(currency: Currency, cursor: JSONTokenCursor, texts: TextRules) -> Cart? {
        var cartItems: [CartItem] = []
        cartItems.reserveCapacity(items.count)
        for line in items {
            guard let item = line.item(currency: currency, cursor: cursor, texts: texts) else { return nil }
            cartItems.append(item)
        }
        var cartDiscounts: [Discount] = []
        cartDiscounts.reserveCapacity(discounts.count)
        for line in discounts {
            guard let discount = line.discount(currency: currency, cursor: cursor, texts: texts) else { return nil }
            cartDiscounts.append(discount)
        }
        var total: Money?
        if let subtotal {
            guard let amount = subtotal.money(currency: currency, cursor: cursor), !amount.isNegative else { return nil }
            if !cartItems.isEmpty && amount != cartItems.map(\.lineAmount).sum(in: currency) { return nil }
            total = amount
        }
        return Cart(items: cartItems, discounts: cartDiscounts, subtotal: total)
    }
}

/// A cart item or a discount: the members both have, and the item's own.
private struct RawLine {
    var id: String?
    var label: String?
    var quantity: Int64?
    var amount: RawAmount?
    var taxCategory: String?
    var weightGrams: Int64?

    init?(_ c: inout JSONTokenCursor, amountKey: StaticString) {
        guard c.take(UInt8(ascii: "{")) else { return nil }
        let isItem = amountKey.utf8CodeUnitCount == "unit_amount".utf8.count
        var seen: UInt8 = 0
        var first = true
        while true {
            guard let member = c.member(first: first) else { return nil }
            first = false
            guard case .key(let key) = member else { break }
            let index: UInt8
            if c.bytes(key, equal: "id") { index = 0 }
            else if c.bytes(key, equal: "label") { index = 1 }
            else if c.bytes(key, equal: amountKey) { index = 2 }
            else if isItem && c.bytes(key, equal: "quantity") { index = 3 }
            else if isItem && c.bytes(key, equal: "tax_category") { index = 4 }
            else if isItem && c.bytes(key, equal: "weight_grams") { index = 5 }
            else { return nil }
            guard seen & (1 << index) == 0 else { return nil }
            seen |= 1 << index
            if c.takeNull() { continue }
            switch index {
            case 0: guard let text = c.stringValue() else { return nil }; id = text
            case 1: guard let text = c.stringValue() else { return nil }; label = text
            case 2: guard let value = RawAmount(&c) else { return nil }; amount = value
            case 3: guard let number = c.number(), let value = c.wholeNumber(number) else { return nil }; quantity = value
            case 4: guard let text = c.stringValue() else { return nil }; taxCategory = text
            default: guard let number = c.number(), let value = c.wholeNumber(number) else { return nil }; weightGrams = value
            }
        }
    }

    func item(currency: Currency, cursor: JSONTokenCursor, texts: TextRules) -> CartItem? {
        guard let id, let label, let quantity, let amount, (1...EventLimits.maxQuantity).contains(quantity),
              texts.isIdentifier(id), texts.isLabel(label),
              let unitAmount = amount.money(currency: currency, cursor: cursor), !unitAmount.isNegative else { return nil }
        let (line, overflow) = unitAmount.minorUnits.multipliedReportingOverflow(by: quantity)
        guard !overflow, line <= Money.maxMinorUnits else { return nil }
        if let taxCategory { guard texts.isIdentifier(taxCategory) else { return nil } }
        if let weightGrams { guard (0...EventLimits.maxWeightGrams).contains(weightGrams) else { return nil } }
        return CartItem(id: id, label: label, quantity: Int(quantity), unitAmount: unitAmount,
                        taxCategory: taxCategory, weightGrams: weightGrams.map { Int($0) })
    }

    func discount(currency: Currency, cursor: JSONTokenCursor, texts: TextRules) -> Discount? {
        guard let id, let label, let amount,
              texts.isIdentifier(id), texts.isLabel(label),
              let money = amount.money(currency: currency, cursor: cursor), money.minorUnits <= 0 else { return nil }
        return Discount(id: id, label: label, amount: money)
    }
}

/// `{ "currency": …, "value": … }`: where each one's bytes are.
private struct RawAmount {
    var currency: Range<Int>?
    var literal: Range<Int>?

    init?(_ c: inout JSONTokenCursor) {
        guard c.take(UInt8(ascii: "{")) else { return nil }
        var seen: UInt8 = 0
        var first = true
        while true {
            guard let member = c.member(first: first) else { return nil }
            first = false
            guard case .key(let key) = member else { break }
            if c.bytes(key, equal: "currency") {
                guard seen & 1 == 0 else { return nil }
                seen |= 1
                if c.takeNull() { continue }
                guard let (range, _) = c.string() else { return nil }
                currency = range
            } else if c.bytes(key, equal: "value") {
                guard seen & 2 == 0 else { return nil }
                seen |= 2
                if c.takeNull() { continue }
                if c.atString() {
                    guard let (range, _) = c.string() else { return nil }
                    literal = range
                } else {
                    guard let number = c.number() else { return nil }
                    literal = number
                }
            } else {
                return nil
            }
        }
    }

    func money(currency expected: Currency, cursor: JSONTokenCursor) -> Money? {
        guard let currency, let literal, cursor.slice(currency).elementsEqual(expected.code.utf8) else { return nil }
        return try? AmountField.money(utf8: cursor.slice(literal), currency: expected, form: .numberOrDecimalString)
    }
}

/// `FieldText`'s rules for ids and labels, answered without a pass over the text when every
/// string of the event was printable ASCII (no control character possible, a byte a character).
private struct TextRules {
    let plain: Bool

    func isIdentifier(_ text: String, maxLength: Int = .max) -> Bool {
        if plain { return !text.isEmpty && text.utf8.count <= maxLength }
        return (try? FieldText.identifier(text, "", maxLength: maxLength)) != nil
    }

    func isLabel(_ text: String) -> Bool { plain || !FieldText.hasControlCharacter(text) }
}

extension JSONTokenCursor {
    /// A string value as text; nil for anything else (another type, an escape, bad UTF-8).
    mutating func stringValue() -> String? {
        guard let (range, ascii) = string() else { return nil }
        return text(range, ascii: ascii)
    }
}
