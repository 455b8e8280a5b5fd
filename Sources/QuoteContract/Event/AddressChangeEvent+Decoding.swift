import Foundation
import ShippingRules

extension AddressChangeEvent {
    /// Reads an event from a Kafka record's value and key, checking every rule of the contract's
    /// event table; the first broken rule is reported.
    ///
    /// - Members the contract does not name are ignored at every level (forward compatibility:
    ///   a producer may add fields before every worker knows them). Duplicate keys are refused,
    ///   even among unknown members.
    /// - A member that is `null` counts as absent.
    /// - `key` nil means the record had no key, which breaks the key rule (`key_mismatch`).
    public static func decode(_ bytes: [UInt8], key: [UInt8]?) -> Result<AddressChangeEvent, EventRejection> {
        decode(bytes, checkingKey: true, key: key)
    }

    /// Reads an event without the key rule: for tools that read an event from a file and take
    /// the key from its `session_id`.
    public static func decode(unkeyed bytes: [UInt8]) -> Result<AddressChangeEvent, EventRejection> {
        decode(bytes, checkingKey: false, key: nil)
    }

    private static func decode(_ bytes: [UInt8], checkingKey: Bool, key: [UInt8]?) -> Result<AddressChangeEvent, EventRejection> {
        IncomingEvent.read(bytes, checkingKey: checkingKey, key: key).map { $0.event() }
    }

    /// The full decoder: a JSON tree, then every rule in the contract's order. It is the
    /// authority; `ScannedEvent` only takes the common case off its hands.
    public static func decodeThoroughly(_ bytes: [UInt8], checkingKey: Bool, key: [UInt8]?) -> Result<AddressChangeEvent, EventRejection> {
        guard bytes.count <= EventLimits.maxBytes else {
            return .failure(EventRejection(code: .tooLarge, message: "the event is larger than \(EventLimits.maxBytes) bytes"))
        }
        let root: JSONValue
        do {
            root = try JSONReader(maxBytes: EventLimits.maxBytes, maxDepth: EventLimits.maxDepth).read(bytes)
        } catch {
            switch error.kind {
            case .tooDeep:
                return .failure(EventRejection(code: .tooDeep, message: "arrays and objects are nested deeper than \(EventLimits.maxDepth) levels"))
            case .tooLarge:
                return .failure(EventRejection(code: .tooLarge, message: "the event is larger than \(EventLimits.maxBytes) bytes"))
            default:
                return .failure(EventRejection(code: .notJSON, message: "the event is not valid JSON: \(error)"))
            }
        }
        guard case .object(let object) = root else {
            return .failure(EventRejection(code: .invalidField, message: "the event must be a JSON object"))
        }
        do {
            return .success(try EventFields(object: object).event(checkingKey: checkingKey, key: key))
        } catch {
            return .failure(EventRejection(code: error.code, field: error.field, message: error.message,
                                           sessionID: try? EventFields.sessionID(object),
                                           sequence: try? EventFields.sequence(object)))
        }
    }
}

/// The event's members, read in the contract's order of importance: what makes the event
/// addressable (version, session, key, sequence) first.
private struct EventFields {
    let object: JSONObject

    static func sessionID(_ object: JSONObject) throws(FieldFailure) -> String {
        try FieldText.identifier(try object.requiredString("session_id"), "session_id", maxLength: EventLimits.maxSessionIDLength)
    }

    static func sequence(_ object: JSONObject) throws(FieldFailure) -> Int64 {
        try object.requiredInteger("sequence", in: 1...Int64.max)
    }

    func event(checkingKey: Bool, key: [UInt8]?) throws(FieldFailure) -> AddressChangeEvent {
        switch try object.requiredValue("version") {
        case .number(let literal) where literal == "1": break
        case .number(let literal) where Int64(literal) != nil:
            throw FieldFailure(.unsupportedVersion, "version", "must be \(AddressChangeEvent.currentVersion)")
        default:
            throw FieldFailure(.invalidField, "version", "must be the integer \(AddressChangeEvent.currentVersion)")
        }
        let sessionID = try EventFields.sessionID(object)
        if checkingKey {
            guard let key else { throw FieldFailure(.keyMismatch, "session_id", "must equal the message key, and the message has no key") }
            guard sessionID.utf8.elementsEqual(key) else { throw FieldFailure(.keyMismatch, "session_id", "must equal the message key") }
        }
        let sequence = try EventFields.sequence(object)
        let currencyCode = try object.requiredString("currency")
        guard let currency = Currency(code: currencyCode) else {
            throw FieldFailure(.invalidField, "currency", "must be a known ISO 4217 currency code")
        }
        let eventID = try object.optionalString("event_id").map { (text) throws(FieldFailure) in
            try FieldText.identifier(text, "event_id", maxLength: EventLimits.maxEventIDLength)
        }
        let merchant = try object.optionalString("merchant").map { (text) throws(FieldFailure) in
            try FieldText.identifier(text, "merchant", maxLength: Int.max)
        }
        let paymentMethodType = try FieldText.identifier(try object.requiredString("payment_method_type"),
                                                         "payment_method_type", maxLength: Int.max)
        guard let trigger = QuoteTrigger(rawValue: try object.requiredString("trigger")) else {
            throw FieldFailure(.unsupportedTrigger, "trigger", "must be sheet_opened, address_changed or payment_authorized")
        }
        let addressObject = try object.requiredObject("shipping_address")
        let address = try within("shipping_address") { () throws(FieldFailure) in try EventFields.address(addressObject) }
        let cartObject = try object.requiredObject("cart")
        let cart = try within("cart") { () throws(FieldFailure) in try EventFields.cart(cartObject, currency: currency) }
        let selected = try object.optionalString("selected_shipping_method_id").map { (text) throws(FieldFailure) in
            try FieldText.identifier(text, "selected_shipping_method_id", maxLength: Int.max)
        }
        // The final check prices the customer's choice: without one there is nothing to check.
        if trigger == .paymentAuthorized && selected == nil {
            throw FieldFailure(.missingField, "selected_shipping_method_id", "is required when trigger is payment_authorized")
        }
        let occurredAt = try EventFields.time(try object.requiredString("occurred_at"), "occurred_at")
        let replyBy = try object.optionalString("reply_by").map { (text) throws(FieldFailure) in
            try EventFields.time(text, "reply_by")
        }
        return AddressChangeEvent(eventID: eventID, sessionID: sessionID, sequence: sequence, merchant: merchant,
                                  paymentMethodType: paymentMethodType, trigger: trigger, currency: currency,
                                  shippingAddress: address, cart: cart, selectedShippingMethodID: selected,
                                  occurredAt: occurredAt, replyBy: replyBy)
    }

    static func time(_ text: String, _ key: String) throws(FieldFailure) -> Date {
        guard let date = RFC3339.parse(text) else {
            throw FieldFailure(.invalidField, key, "must be an RFC 3339 time such as 2026-10-10T12:00:00.123Z")
        }
        return date
    }

    /// Every field may be absent or null; present ones are strings, the country two upper-case letters.
    static func address(_ object: JSONObject) throws(FieldFailure) -> PartialAddress {
        let country = try object.optionalString("country_code")
        if let country {
            let bytes = country.utf8
            guard bytes.count == 2, bytes.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
                throw FieldFailure(.invalidField, "country_code", "must be an ISO 3166-1 alpha-2 code in two upper-case letters")
            }
        }
        return PartialAddress(city: try object.optionalString("city"), state: try object.optionalString("state"),
                              postalCode: try object.optionalString("postal_code"), countryCode: country)
    }

    static func cart(_ object: JSONObject, currency: Currency) throws(FieldFailure) -> Cart {
        let itemValues = try object.optionalArray("items", maxCount: EventLimits.maxItems)
        var items: [CartItem] = []
        items.reserveCapacity(itemValues.count)
        for (index, value) in itemValues.enumerated() {
            let item = try within("items[\(index)]") { () throws(FieldFailure) in
                guard case .object(let line) = value else { throw FieldFailure(.invalidField, nil, "must be an object") }
                return try EventFields.item(line, currency: currency)
            }
            items.append(item)
        }
        let discountValues = try object.optionalArray("discounts", maxCount: EventLimits.maxDiscounts)
        var discounts: [Discount] = []
        discounts.reserveCapacity(discountValues.count)
        for (index, value) in discountValues.enumerated() {
            let discount = try within("discounts[\(index)]") { () throws(FieldFailure) in
                guard case .object(let line) = value else { throw FieldFailure(.invalidField, nil, "must be an object") }
                return try EventFields.discount(line, currency: currency)
            }
            discounts.append(discount)
        }
        var subtotal: Money?
        if object.present("subtotal") != nil {
            let amount = try AmountField.read(object, "subtotal", currency: currency, form: .numberOrDecimalString)
            guard !amount.isNegative else { throw FieldFailure(.invalidField, "subtotal", "must not be negative") }
            if !items.isEmpty && amount != items.map(\.lineAmount).sum(in: currency) {
                throw FieldFailure(.invalidField, "subtotal", "must equal the sum of quantity × unit_amount over the items")
            }
            subtotal = amount
        }
        return Cart(items: items, discounts: discounts, subtotal: subtotal)
    }

    static func item(_ object: JSONObject, currency: Currency) throws(FieldFailure) -> CartItem {
        let id = try FieldText.identifier(try object.requiredString("id"), "id", maxLength: Int.max)
        let label = try FieldText.label(try object.requiredString("label"), "label")
        let quantity = try object.requiredInteger("quantity", in: 1...EventLimits.maxQuantity)
        let unitAmount = try AmountField.read(object, "unit_amount", currency: currency, form: .numberOrDecimalString)
        guard !unitAmount.isNegative else { throw FieldFailure(.invalidField, "unit_amount", "must not be negative") }
        let (line, overflow) = unitAmount.minorUnits.multipliedReportingOverflow(by: quantity)
        guard !overflow, line <= Money.maxMinorUnits else {
            throw FieldFailure(.overLimit, "quantity", "times unit_amount must stay within \(Money.maxMinorUnits) minor units")
        }
        let taxCategory = try object.optionalString("tax_category").map { (text) throws(FieldFailure) in
            try FieldText.identifier(text, "tax_category", maxLength: Int.max)
        }
        let weight = try object.optionalInteger("weight_grams", in: 0...EventLimits.maxWeightGrams)
        let shippingClass = try object.optionalString("shipping_class").map { (text) throws(FieldFailure) in
            try FieldText.identifier(text, "shipping_class", maxLength: EventLimits.maxShippingClassLength)
        }
        var dimensions: ItemDimensions?
        if let value = object.present("dimensions_mm") {
            guard case .object(let size) = value else { throw FieldFailure(.invalidField, "dimensions_mm", "must be an object or null") }
            dimensions = try within("dimensions_mm") { () throws(FieldFailure) in try EventFields.dimensions(size) }
        }
        return CartItem(id: id, label: label, quantity: Int(quantity), unitAmount: unitAmount,
                        taxCategory: taxCategory, weightGrams: weight.map { Int($0) },
                        shippingClass: shippingClass, dimensions: dimensions)
    }

    /// One unit's size: all three sides, whole millimetres.
    static func dimensions(_ object: JSONObject) throws(FieldFailure) -> ItemDimensions {
        let range = 0...EventLimits.maxDimensionMillimetres
        return ItemDimensions(length: Int(try object.requiredInteger("length", in: range)),
                              width: Int(try object.requiredInteger("width", in: range)),
                              height: Int(try object.requiredInteger("height", in: range)))
    }

    static func discount(_ object: JSONObject, currency: Currency) throws(FieldFailure) -> Discount {
        let id = try FieldText.identifier(try object.requiredString("id"), "id", maxLength: Int.max)
        let label = try FieldText.label(try object.requiredString("label"), "label")
        let amount = try AmountField.read(object, "amount", currency: currency, form: .numberOrDecimalString)
        guard amount.minorUnits <= 0 else { throw FieldFailure(.invalidField, "amount", "must be zero or negative") }
        return Discount(id: id, label: label, amount: amount)
    }
}
