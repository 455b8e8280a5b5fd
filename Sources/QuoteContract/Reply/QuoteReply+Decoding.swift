import Foundation
import ShippingRules

extension QuoteReply {
    /// The limits of the contract's reply table.
    public static let maxShippingMethods = 100
    public static let maxSummaryItems = 100

    /// Reads a reply strictly: every amount a string with exactly its currency's minor digits and
    /// all in one currency, `update` present exactly when the outcome has one, delivery ranges
    /// `from ≤ to`. Members the contract does not name are ignored, as for events.
    public static func decode(_ bytes: [UInt8]) throws(ReplyDecodingError) -> QuoteReply {
        let root: JSONValue
        do {
            root = try JSONReader().read(bytes)
        } catch {
            let code: RejectionCode = switch error.kind {
            case .tooDeep: .tooDeep
            case .tooLarge: .tooLarge
            default: .notJSON
            }
            throw ReplyDecodingError(code: code, message: "the reply is not acceptable JSON: \(error)")
        }
        guard case .object(let object) = root else {
            throw ReplyDecodingError(code: .invalidField, message: "the reply must be a JSON object")
        }
        do {
            return try ReplyFields.reply(object)
        } catch {
            throw ReplyDecodingError(code: error.code, field: error.field, message: error.message)
        }
    }
}

private enum ReplyFields {
    static func reply(_ object: JSONObject) throws(FieldFailure) -> QuoteReply {
        switch try object.requiredValue("version") {
        case .number(let literal) where literal == "1": break
        case .number(let literal) where Int64(literal) != nil:
            throw FieldFailure(.unsupportedVersion, "version", "must be \(QuoteReply.currentVersion)")
        default:
            throw FieldFailure(.invalidField, "version", "must be the integer \(QuoteReply.currentVersion)")
        }
        let sessionID = try FieldText.identifier(try object.requiredString("session_id"), "session_id",
                                                 maxLength: EventLimits.maxSessionIDLength)
        let sequence = try object.requiredInteger("sequence", in: 1...Int64.max)
        let eventID = try object.optionalString("event_id")
        guard let kind = QuoteOutcome.Kind(rawValue: try object.requiredString("outcome")) else {
            let names = QuoteOutcome.Kind.allCases.map(\.rawValue)   // "must be update, keep, unserviceable or rejected"
            throw FieldFailure(.invalidField, "outcome", "must be \(names.dropLast().joined(separator: ", ")) or \(names.last!)")
        }
        let outcome: QuoteOutcome
        switch kind {
        case .update:
            let update = try within("update") { () throws(FieldFailure) in try ReplyFields.update(try object.requiredObject("update")) }
            outcome = .update(update)
        case .unserviceable:
            let update = try within("update") { () throws(FieldFailure) in try ReplyFields.update(try object.requiredObject("update")) }
            guard update.summaryItems.isEmpty, update.shippingMethods.isEmpty, !update.errors.isEmpty else {
                throw FieldFailure(.invalidField, "update",
                                   "must hold errors only (empty summary_items and shipping_methods) when unserviceable")
            }
            outcome = .unserviceable(update.errors)
        case .keep, .rejected:
            guard object.present("update") == nil else {
                throw FieldFailure(.invalidField, "update", "must be null when the outcome is \(kind.rawValue)")
            }
            outcome = kind == .keep ? .keep : .rejected(QuoteRejection(wireText: try object.requiredString("rejection")))
        }
        let rulesVersion = try object.optionalString("rules_version")
        guard let computedAt = RFC3339.parse(try object.requiredString("computed_at")) else {
            throw FieldFailure(.invalidField, "computed_at", "must be an RFC 3339 time")
        }
        return QuoteReply(sessionID: sessionID, sequence: sequence, eventID: eventID, outcome: outcome,
                          rulesVersion: rulesVersion, computedAt: computedAt)
    }

    /// Reads an `update` object; the first amount fixes the currency the others must share.
    static func update(_ object: JSONObject) throws(FieldFailure) -> ShippingUpdate {
        var currency: Currency?
        let summary = try summaryItems(object, "summary_items", currency: &currency)
        let methodValues = try object.requiredArray("shipping_methods", maxCount: QuoteReply.maxShippingMethods)
        var methods: [ShippingMethod] = []
        for (index, value) in methodValues.enumerated() {
            let method = try within("shipping_methods[\(index)]") { () throws(FieldFailure) in
                guard case .object(let entry) = value else { throw FieldFailure(.invalidField, nil, "must be an object") }
                return try ReplyFields.method(entry, currency: &currency)
            }
            methods.append(method)
        }
        let errorValues = try object.requiredArray("errors", maxCount: QuoteReply.maxSummaryItems)
        var errors: [ShippingError] = []
        for (index, value) in errorValues.enumerated() {
            let error = try within("errors[\(index)]") { () throws(FieldFailure) in
                guard case .object(let entry) = value else { throw FieldFailure(.invalidField, nil, "must be an object") }
                return ShippingError(code: try FieldText.identifier(try entry.requiredString("code"), "code", maxLength: Int.max),
                                     message: try FieldText.label(try entry.requiredString("message"), "message"))
            }
            errors.append(error)
        }
        return ShippingUpdate(summaryItems: summary, shippingMethods: methods, errors: errors)
    }

    static func method(_ object: JSONObject, currency: inout Currency?) throws(FieldFailure) -> ShippingMethod {
        let id = try FieldText.identifier(try object.requiredString("id"), "id", maxLength: Int.max)
        let label = try FieldText.label(try object.requiredString("label"), "label")
        let detail = try object.optionalString("detail").map { (text) throws(FieldFailure) in try FieldText.label(text, "detail") }
        let amount = try amount(object, "amount", currency: &currency)
        var estimate: DeliveryEstimate?
        if object.present("delivery_estimate") != nil {
            let range = try object.requiredObject("delivery_estimate")
            estimate = try within("delivery_estimate") { () throws(FieldFailure) in
                let expected = "must be a date YYYY-MM-DD"
                guard let from = CalendarDate(iso: try range.requiredString("from")) else { throw FieldFailure(.invalidField, "from", expected) }
                guard let to = CalendarDate(iso: try range.requiredString("to")) else { throw FieldFailure(.invalidField, "to", expected) }
                guard from <= to else { throw FieldFailure(.invalidField, "to", "must not be before from") }
                return DeliveryEstimate(from: from, to: to)
            }
        }
        let summary = try summaryItems(object, "summary_items", currency: &currency)
        return ShippingMethod(id: id, label: label, detail: detail, amount: amount, deliveryEstimate: estimate, summaryItems: summary)
    }

    static func summaryItems(_ object: JSONObject, _ key: String, currency: inout Currency?) throws(FieldFailure) -> [SummaryItem] {
        let values = try object.requiredArray(key, maxCount: QuoteReply.maxSummaryItems)
        var items: [SummaryItem] = []
        items.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            let item = try within("\(key)[\(index)]") { () throws(FieldFailure) in
                guard case .object(let entry) = value else { throw FieldFailure(.invalidField, nil, "must be an object") }
                return SummaryItem(id: try FieldText.identifier(try entry.requiredString("id"), "id", maxLength: Int.max),
                                   label: try FieldText.label(try entry.requiredString("label"), "label"),
                                   amount: try amount(entry, "amount", currency: &currency))
            }
            items.append(item)
        }
        return items
    }

    static func amount(_ object: JSONObject, _ key: String, currency: inout Currency?) throws(FieldFailure) -> Money {
        let money = try AmountField.read(object, key, currency: currency, form: .canonicalString)
        if currency == nil { currency = money.currency }
        return money
    }
}
