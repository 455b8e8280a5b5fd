import Foundation
import Testing
@testable import QuoteContract
import ShippingRules

enum ReplyFixtures {
    static func usd(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .usd) }
    static let computedAt = RFC3339.parse("2026-10-10T12:00:00.140Z")!

    static let update = ShippingUpdate(
        summaryItems: [
            SummaryItem(id: "subtotal", label: "Subtotal", amount: usd(5000)),
            SummaryItem(id: "total", label: "ACME Inc.", amount: usd(5500)),
        ],
        shippingMethods: [
            ShippingMethod(id: "standard", label: "Standard shipping", detail: "Arrives in 3-5 business days", amount: usd(500),
                           deliveryEstimate: DeliveryEstimate(from: CalendarDate(year: 2026, month: 10, day: 13)!,
                                                              to: CalendarDate(year: 2026, month: 10, day: 15)!),
                           summaryItems: [SummaryItem(id: "total", label: "ACME Inc.", amount: usd(5500))]),
            ShippingMethod(id: "pickup", label: "Pickup", amount: usd(0), summaryItems: []),
        ])

    static func reply(_ outcome: QuoteOutcome, eventID: String? = "e-1", rulesVersion: String? = "sha256:3f1c") -> QuoteReply {
        QuoteReply(sessionID: "s-1", sequence: 7, eventID: eventID, outcome: outcome, rulesVersion: rulesVersion, computedAt: computedAt)
    }
}

@Suite("Reply encoding")
struct ReplyEncodingTests {
    private func text(_ reply: QuoteReply) -> String { String(decoding: reply.encode(), as: UTF8.self) }

    @Test("an update is written byte for byte in the contract's shape")
    func encodesUpdate() {
        let expected = #"{"version":1,"session_id":"s-1","sequence":7,"event_id":"e-1","outcome":"update","update":{"summary_items":[{"id":"subtotal","label":"Subtotal","amount":{"currency":"USD","value":"50.00"}},{"id":"total","label":"ACME Inc.","amount":{"currency":"USD","value":"55.00"}}],"shipping_methods":[{"id":"standard","label":"Standard shipping","detail":"Arrives in 3-5 business days","amount":{"currency":"USD","value":"5.00"},"delivery_estimate":{"from":"2026-10-13","to":"2026-10-15"},"summary_items":[{"id":"total","label":"ACME Inc.","amount":{"currency":"USD","value":"55.00"}}]},{"id":"pickup","label":"Pickup","amount":{"currency":"USD","value":"0.00"},"summary_items":[]}],"errors":[]},"rules_version":"sha256:3f1c","computed_at":"2026-10-10T12:00:00.140Z"}"#
        #expect(text(ReplyFixtures.reply(.update(ReplyFixtures.update))) == expected)
    }

    @Test("keep writes a null update; absent ids are null too")
    func encodesKeep() {
        let expected = #"{"version":1,"session_id":"s-1","sequence":7,"event_id":null,"outcome":"keep","update":null,"rules_version":"sha256:3f1c","computed_at":"2026-10-10T12:00:00.140Z"}"#
        #expect(text(ReplyFixtures.reply(.keep, eventID: nil)) == expected)
    }

    @Test("unserviceable writes errors only, with empty summary and methods")
    func encodesUnserviceable() {
        let errors = [ShippingError(code: ShippingError.countryNotSupported, message: "We do not ship to this country")]
        let expected = #"{"version":1,"session_id":"s-1","sequence":7,"event_id":"e-1","outcome":"unserviceable","update":{"summary_items":[],"shipping_methods":[],"errors":[{"code":"COUNTRY_NOT_SUPPORTED","message":"We do not ship to this country"}]},"rules_version":"sha256:3f1c","computed_at":"2026-10-10T12:00:00.140Z"}"#
        #expect(text(ReplyFixtures.reply(.unserviceable(errors))) == expected)
    }

    @Test("rejected writes a null update and the rejection words")
    func encodesRejected() throws {
        let rejection = try #require(ContractFixtures.rejection(
            ContractFixtures.example(setting: "cart.items[0].quantity", to: .number("0"))))
        let reply = try #require(QuoteReply(rejecting: rejection, computedAt: ReplyFixtures.computedAt))
        let expected = #"{"version":1,"session_id":"9a0c6f0e-4b1e-4c1a-9a55-3c2f1d7e8b10","sequence":7,"event_id":null,"outcome":"rejected","update":null,"rejection":"invalid_field: cart.items[0].quantity must be an integer from 1 to 1000000 without fraction or exponent","rules_version":null,"computed_at":"2026-10-10T12:00:00.140Z"}"#
        #expect(text(reply) == expected)
    }

    @Test("amounts carry exactly the currency's minor digits", arguments: [
        (Currency.usd, Int64(5394), "53.94"), (.usd, -5, "-0.05"), (.jpy, 1000, "1000"), (.kwd, 1234, "1.234"), (.kwd, 5, "0.005"),
    ])
    func amountDigits(currency: Currency, minorUnits: Int64, value: String) {
        let money = Money(minorUnits: minorUnits, currency: currency)
        let reply = ReplyFixtures.reply(.update(ShippingUpdate(summaryItems: [SummaryItem(id: "total", label: "Shop", amount: money)])))
        #expect(text(reply).contains(#"{"currency":"\#(currency.code)","value":"\#(value)"}"#))
    }

    @Test("a method's items equal to the update's at their place are written the same, escapes and all")
    func repeatedItemsAreWrittenAlike() {
        let usd = ReplyFixtures.usd
        let top = [SummaryItem(id: "subtotal", label: "Sub", amount: usd(100)),
                   SummaryItem(id: "tax", label: "Tax \"VAT\"", amount: usd(-2)),
                   SummaryItem(id: "total", label: "Shop", amount: usd(98))]
        let update = ShippingUpdate(summaryItems: top, shippingMethods: [
            ShippingMethod(id: "a", label: "A", amount: usd(0), summaryItems: top),
            ShippingMethod(id: "b", label: "B", amount: usd(5), summaryItems: [
                top[0], SummaryItem(id: "tax", label: "Tax \"VAT\"", amount: usd(-3)), SummaryItem(id: "total", label: "Shop", amount: usd(102)),
                top[2]]),
            ShippingMethod(id: "c", label: "C", amount: usd(1), summaryItems: [top[1]]),
        ])
        let sub = #"{"id":"subtotal","label":"Sub","amount":{"currency":"USD","value":"1.00"}}"#
        let tax = #"{"id":"tax","label":"Tax \"VAT\"","amount":{"currency":"USD","value":"-0.02"}}"#
        let total = #"{"id":"total","label":"Shop","amount":{"currency":"USD","value":"0.98"}}"#
        let expected = #"{"version":1,"session_id":"s-1","sequence":7,"event_id":"e-1","outcome":"update","update":{"summary_items":["#
            + "\(sub),\(tax),\(total)"
            + #"],"shipping_methods":[{"id":"a","label":"A","amount":{"currency":"USD","value":"0.00"},"summary_items":["#
            + "\(sub),\(tax),\(total)"
            + #"]},{"id":"b","label":"B","amount":{"currency":"USD","value":"0.05"},"summary_items":["#
            + #"\#(sub),{"id":"tax","label":"Tax \"VAT\"","amount":{"currency":"USD","value":"-0.03"}},{"id":"total","label":"Shop","amount":{"currency":"USD","value":"1.02"}},\#(total)"#
            + #"]},{"id":"c","label":"C","amount":{"currency":"USD","value":"0.01"},"summary_items":["#
            + tax
            + #"]}],"errors":[]},"rules_version":"sha256:3f1c","computed_at":"2026-10-10T12:00:00.140Z"}"#
        let reply = ReplyFixtures.reply(.update(update))
        #expect(text(reply) == expected)
    }

    @Test("labels are escaped, not altered")
    func escapesLabels() throws {
        let update = ShippingUpdate(summaryItems: [SummaryItem(id: "total", label: "\"Bob's\" Café \\ Shop", amount: ReplyFixtures.usd(1))])
        let reply = ReplyFixtures.reply(.update(update))
        #expect(text(reply).contains(#""label":"\"Bob's\" Café \\ Shop""#))
        #expect(try QuoteReply.decode(reply.encode()) == reply)
    }
}

@Suite("Reply decoding")
struct ReplyDecodingTests {
    @Test("every outcome survives encode and decode", arguments: [
        QuoteOutcome.update(ReplyFixtures.update),
        .keep,
        .unserviceable([ShippingError(code: "POSTAL_CODE_INVALID", message: "Check the postal code")]),
        .rejected(QuoteRejection(code: "not_json", message: "the event is not valid JSON")),
        .rejected(QuoteRejection(code: "CURRENCY_MISMATCH", message: "cart.items[0]: EUR is not USD")),
        .rejected(QuoteRejection(code: "", message: "words without a code")),
    ])
    func roundTrip(outcome: QuoteOutcome) throws {
        for reply in [ReplyFixtures.reply(outcome), ReplyFixtures.reply(outcome, eventID: nil, rulesVersion: nil)] {
            #expect(try QuoteReply.decode(reply.encode()) == reply)
        }
    }

    @Test("the contract's reply reads with its amounts")
    func readsContractShape() throws {
        let text = """
        {"version": 1, "session_id": "9a0c6f0e", "sequence": 7, "event_id": "01JB", "outcome": "update",
         "update": {"summary_items": [{"id": "tax", "label": "Tax", "amount": {"currency": "USD", "value": "3.94"}},
                                      {"id": "total", "label": "ACME Inc.", "amount": {"currency": "USD", "value": "53.94"}}],
                    "shipping_methods": [], "errors": []},
         "rules_version": "sha256:3f1c", "computed_at": "2026-10-10T12:00:00.140Z", "future_member": [1]}
        """
        let reply = try QuoteReply.decode(text.bytes)
        guard case .update(let update) = reply.outcome else { Issue.record("not an update"); return }
        #expect(update.summaryItems.map(\.amount.minorUnits) == [394, 5394])
        #expect(RFC3339.epochMilliseconds(reply.computedAt) == 1_791_633_600_140)
    }

    struct BadReply: Sendable, CustomTestStringConvertible {
        let name: String
        let from: String
        let to: String
        let code: RejectionCode
        let field: String?
        var testDescription: String { name }
    }

    static let validUpdate = String(decoding: ReplyFixtures.reply(.update(ReplyFixtures.update)).encode(), as: UTF8.self)

    static let badReplies: [BadReply] = [
        BadReply(name: "amount as a number", from: #""value":"5.00""#, to: #""value":5.00"#, code: .invalidField,
                 field: "update.shipping_methods[0].amount.value"),
        BadReply(name: "amount without its minor digits", from: #""value":"5.00""#, to: #""value":"5""#, code: .invalidField,
                 field: "update.shipping_methods[0].amount.value"),
        BadReply(name: "amount with extra digits", from: #""value":"5.00""#, to: #""value":"5.000""#, code: .invalidField,
                 field: "update.shipping_methods[0].amount.value"),
        BadReply(name: "two currencies", from: #"{"currency":"USD","value":"5.00"}"#, to: #"{"currency":"EUR","value":"5.00"}"#,
                 code: .currencyMismatch, field: "update.shipping_methods[0].amount.currency"),
        BadReply(name: "unknown outcome", from: #""outcome":"update""#, to: #""outcome":"maybe""#, code: .invalidField, field: "outcome"),
        BadReply(name: "keep with an update", from: #""outcome":"update""#, to: #""outcome":"keep""#, code: .invalidField, field: "update"),
        BadReply(name: "unserviceable with methods", from: #""outcome":"update""#, to: #""outcome":"unserviceable""#,
                 code: .invalidField, field: "update"),
        BadReply(name: "delivery range backwards", from: #""to":"2026-10-15""#, to: #""to":"2026-10-12""#, code: .invalidField,
                 field: "update.shipping_methods[0].delivery_estimate.to"),
        BadReply(name: "delivery date not a date", from: #""from":"2026-10-13""#, to: #""from":"2026-13-13""#, code: .invalidField,
                 field: "update.shipping_methods[0].delivery_estimate.from"),
        BadReply(name: "version 2", from: #""version":1"#, to: #""version":2"#, code: .unsupportedVersion, field: "version"),
        BadReply(name: "sequence 0", from: #""sequence":7"#, to: #""sequence":0"#, code: .invalidField, field: "sequence"),
        BadReply(name: "missing computed_at", from: #","computed_at":"2026-10-10T12:00:00.140Z""#, to: "", code: .missingField,
                 field: "computed_at"),
        BadReply(name: "missing errors", from: #","errors":[]"#, to: "", code: .missingField, field: "update.errors"),
        BadReply(name: "duplicate key", from: #""version":1"#, to: #""version":1,"version":1"#, code: .notJSON, field: nil),
    ]

    @Test("refuses replies that break the contract", arguments: badReplies)
    func refusesBadReplies(_ bad: BadReply) throws {
        let text = ReplyDecodingTests.validUpdate
        try #require(text.contains(bad.from))
        let broken = text.replacingOccurrences(of: bad.from, with: bad.to, options: [], range: text.range(of: bad.from))
        do {
            _ = try QuoteReply.decode(broken.bytes)
            Issue.record("accepted a bad reply")
        } catch {
            #expect(error.code == bad.code)
            #expect(error.field == bad.field)
        }
    }

    @Test("rejected needs its rejection words")
    func rejectedNeedsReason() {
        let text = #"{"version":1,"session_id":"s","sequence":1,"outcome":"rejected","update":null,"computed_at":"2026-10-10T12:00:00.140Z"}"#
        #expect(throws: ReplyDecodingError(code: .missingField, field: "rejection", message: "rejection is required")) {
            try QuoteReply.decode(text.bytes)
        }
    }
}

@Suite("Outcome names and rejection words")
struct OutcomeWireTests {
    @Test("the outcome names are the contract's")
    func outcomeNames() {
        #expect(QuoteOutcome.Kind.allCases.map(\.rawValue) == ["update", "keep", "unserviceable", "rejected"])
        #expect(QuoteOutcome.rejected(QuoteRejection(code: "c", message: "m")).kind == .rejected)
        #expect(QuoteOutcome.unserviceable([]).kind == .unserviceable)
        let text = #"{"version":1,"session_id":"s","sequence":1,"outcome":"maybe","update":null,"computed_at":"2026-10-10T12:00:00.140Z"}"#
        #expect(throws: ReplyDecodingError(code: .invalidField, field: "outcome",
                                           message: "outcome must be update, keep, unserviceable or rejected")) {
            try QuoteReply.decode(text.bytes)
        }
    }

    @Test("a rules rejection is written code: message")
    func rulesRejectionBytes() {
        let reply = ReplyFixtures.reply(.rejected(QuoteRejection(code: "CURRENCY_NOT_PRICED", message: "the rules price USD, not EUR")))
        let text = String(decoding: reply.encode(), as: UTF8.self)
        #expect(text == #"{"version":1,"session_id":"s-1","sequence":7,"event_id":"e-1","outcome":"rejected","update":null,"rejection":"CURRENCY_NOT_PRICED: the rules price USD, not EUR","rules_version":"sha256:3f1c","computed_at":"2026-10-10T12:00:00.140Z"}"#)
    }

    @Test("an event rejection reads as the rejection of its reply")
    func eventRejection() {
        let rejection = EventRejection(code: .keyMismatch, field: "session_id", message: "session_id must equal the message key")
        #expect(rejection.quoteRejection == QuoteRejection(code: "key_mismatch", message: "session_id must equal the message key"))
        #expect(rejection.description == "key_mismatch: session_id must equal the message key")
    }

    @Test("rejection words split at the first colon and space", arguments: [
        ("a: b: c", "a", "b: c"),
        ("no separator", "", "no separator"),
        ("a:b", "", "a:b"),
        (": starts with one", "", "starts with one"),
        ("ends with one: ", "ends with one", ""),
        ("", "", ""),
        ("café: déjà vu", "café", "déjà vu"),
    ])
    func splitsAtFirstSeparator(text: String, code: String, message: String) {
        #expect(QuoteRejection(wireText: text) == QuoteRejection(code: code, message: message))
    }

    @Test("a rejection without a code is written as its message alone")
    func emptyCode() {
        #expect(QuoteRejection(code: "", message: "words").wireText == "words")
        #expect(QuoteRejection(code: "c", message: "").wireText == "c: ")
    }
}

@Suite("Headers and topics")
struct HeaderTests {
    @Test("reply headers: content type, session, sequence, then traceparent")
    func replyHeaders() {
        let headers = ContractHeader.replyHeaders(sessionID: "s-1", sequence: 7, traceparent: "00-abc-def-01")
        #expect(headers.map(\.name) == ["content-type", "session-id", "sequence", "traceparent"])
        #expect(headers.map(\.value) == ["application/json", "s-1", "7", "00-abc-def-01"])
        #expect(ContractHeader.replyHeaders(sessionID: "s-1", sequence: 7).count == 3)
    }

    @Test("dead-letter headers say why and where from")
    func deadLetterHeaders() {
        let rejection = EventRejection(code: .keyMismatch, field: "session_id", message: "session_id must equal the message key")
        let headers = ContractHeader.deadLetterHeaders(rejection: rejection, sourceTopic: "shipping.address-changed",
                                                       sourcePartition: 3, sourceOffset: 42)
        #expect(headers.map(\.name) == ["error-code", "error-message", "source-topic", "source-partition", "source-offset"])
        #expect(headers.map(\.value) == ["key_mismatch", "session_id must equal the message key", "shipping.address-changed", "3", "42"])
    }

    @Test("default topic names are the contract's")
    func topics() {
        let topics = Topics.defaults
        #expect([topics.addressChanged, topics.quoteReplies, topics.deadLetters, topics.quoteState]
            == ["shipping.address-changed", "shipping.quote-replies", "shipping.quote-dlq", "shipping.quote-state"])
    }
}
