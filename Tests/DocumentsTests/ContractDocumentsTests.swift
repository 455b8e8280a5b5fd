import Foundation
import QuoteContract
import ShippingRules
import Testing

/// The JSON Schemas and the examples beside the code agree with the codec: every example event
/// is valid under the schema and decodes; every example reply is valid and is what our encoder writes.
@Suite struct ContractDocumentsTests {
    static let eventSchema = try! SchemaValidator(JSONReader().read(Repository.bytes("docs/schemas/address-change-event.schema.json")))
    static let replySchema = try! SchemaValidator(JSONReader().read(Repository.bytes("docs/schemas/quote-reply.schema.json")))

    @Test func everyExampleEventIsValidAndDecodes() throws {
        let files = try Repository.jsonFiles(in: "examples/events")
        #expect(files.count >= 3)
        for file in files {
            let bytes = try Repository.bytes(file)
            #expect(Self.eventSchema.validate(try JSONReader().read(bytes)) == [], "\(file)")
            guard case .object(let object) = try JSONReader().read(bytes), case .string(let session)? = object["session_id"] else {
                Issue.record("\(file): no session_id"); continue
            }
            if case .failure(let rejection) = AddressChangeEvent.decode(bytes, key: Array(session.utf8)) {
                Issue.record("\(file): the worker would reject it: \(rejection)")
            }
        }
    }

    /// The contract document's example event is the example file, member for member.
    @Test func theContractDocumentsExampleEventIsTheExampleFile() throws {
        let example = try Repository.text("examples/events/contract-example.json")
        // The first json block of docs/contract.md is the event.
        let block = try #require(ContractDocument.jsonBlocks().first)
        #expect(try JSONReader().read(block) == JSONReader().read(example))
    }

    /// What the worker answers for each example event with the example rules, as encoded on the wire.
    static func replies() throws -> [String: [UInt8]] {
        let rules = try RuleLibrary.load(path: Repository.url("examples/rules/us-acme.yaml").path)
        var out: [String: [UInt8]] = [:]
        for (name, event) in [("contract-example", "contract-example"), ("unserviceable", "canada-shortened-postal-code")] {
            let bytes = try Repository.bytes("examples/events/\(event).json")
            guard case .object(let o) = try JSONReader().read(bytes), case .string(let session)? = o["session_id"],
                  case .success(let decoded) = AddressChangeEvent.decode(bytes, key: Array(session.utf8)) else { continue }
            let outcome = rules.quote(decoded.quoteRequest(now: decoded.occurredAt))
            out[name] = QuoteReply(sessionID: decoded.sessionID, sequence: decoded.sequence, eventID: decoded.eventID, outcome: outcome,
                                   rulesVersion: rules.version, computedAt: decoded.occurredAt.addingTimeInterval(0.017)).encode()
        }
        out["keep"] = QuoteReply(sessionID: "3f2b1c9e-0d4a-4e55-8c1f-2a9b7d6e5c40", sequence: 2, eventID: nil, outcome: .keep,
                                 rulesVersion: rules.version, computedAt: RFC3339.parse("2026-10-10T12:00:03.250Z")!).encode()
        let bad = Array(#"{"version":1,"session_id":"7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6","sequence":4,"currency":"USD"}"#.utf8)
        if case .failure(let rejection) = AddressChangeEvent.decode(bad, key: Array("7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6".utf8)),
           let reply = QuoteReply(rejecting: rejection, computedAt: RFC3339.parse("2026-10-10T12:00:04.000Z")!) {
            out["rejected"] = reply.encode()
        }
        return out
    }

    /// `SHIPQUOTE_WRITE_EXAMPLES=1 swift test --filter ContractDocumentsTests` rewrites the example replies
    /// after a deliberate change to the rules or the encoder.
    @Test func everyExampleReplyIsValidAndIsWhatTheEncoderWrites() throws {
        let expected = try Self.replies()
        #expect(expected.keys.sorted() == ["contract-example", "keep", "rejected", "unserviceable"])
        if ProcessInfo.processInfo.environment["SHIPQUOTE_WRITE_EXAMPLES"] == "1" {
            for (name, bytes) in expected {
                try Data(bytes + [UInt8(ascii: "\n")]).write(to: Repository.url("examples/replies/\(name).json"))
            }
        }
        for (name, bytes) in expected {
            let file = "examples/replies/\(name).json"
            // rules_version is the rules file's hash: a comment edit there is no drift of the contract.
            guard case .object(var onDisk) = try JSONReader().read(try Repository.bytes(file)),
                  case .object(let written) = try JSONReader().read(bytes) else { Issue.record("\(file): not an object"); continue }
            if onDisk["rules_version"] != .null { onDisk["rules_version"] = written["rules_version"] }
            #expect(onDisk == written, "\(file) is not what the encoder writes now; see the doc comment")
        }
        let files = try Repository.jsonFiles(in: "examples/replies")
        #expect(files.count == expected.count)
        for file in files {
            let bytes = try Repository.bytes(file)
            #expect(Self.replySchema.validate(try JSONReader().read(bytes)) == [], "\(file)")
            #expect(throws: Never.self, "\(file)") { try QuoteReply.decode(bytes) }
        }
        // docs/contract.md's example event: 53.94 for the example cart in Cupertino.
        #expect(String(decoding: expected["contract-example"]!, as: UTF8.self).contains(#""value":"53.94""#))
    }

    /// The schemas are not vacuous: events the worker dead-letters fail them too.
    @Test func eventsTheContractRefusesFailTheSchema() throws {
        let example = try Repository.text("examples/events/contract-example.json")
        let bent: [(String, String, String)] = [
            ("\"version\": 1", "\"version\": 2", "$.version"),
            ("\"sequence\": 7", "\"sequence\": 0", "$.sequence"),
            ("\"sequence\": 7", "\"sequence\": 7.5", "$.sequence"),
            ("\"trigger\": \"address_changed\"", "\"trigger\": \"opened\"", "$.trigger"),
            ("\"quantity\": 2", "\"quantity\": 0", "$.cart.items[0].quantity"),
            ("\"value\": -5.00", "\"value\": 5.00", "$.cart.discounts[0].amount.value"),
            ("\"currency\": \"USD\",\n", "\"currency\": \"usd\",\n", "$.currency"),
            ("\"session_id\": \"9a0c6f0e-4b1e-4c1a-9a55-3c2f1d7e8b10\",", "", "$"),
        ]
        for (from, to, path) in bent {
            let text = example.replacingOccurrences(of: from, with: to)
            #expect(text != example, "\(from) not found")
            let problems = Self.eventSchema.validate(try JSONReader().read(text))
            #expect(problems.contains { $0.path == path }, "\(to): \(problems)")
        }
        let reply = try Repository.text("examples/replies/keep.json")
        #expect(Self.replySchema.validate(try JSONReader().read(reply.replacingOccurrences(of: "\"keep\"", with: "\"maybe\""))) != [])
        #expect(Self.replySchema.validate(try JSONReader().read(reply.replacingOccurrences(of: "\"version\":1,", with: "\"version\":1,\"extra\":true,"))) != [])
    }

    /// Contract 1.1: cart items may carry a shipping class and a size. The example's battery keeps
    /// express (air) away, and the oversized chair pays standard's surcharge though shipping is free;
    /// the schema, like the decoder, refuses a negative or oversized side.
    @Test func theShippingProfileExampleQuotesByClass() throws {
        let example = try Repository.text("examples/events/shipping-profile.json")
        let event = try AddressChangeEvent.decode(unkeyed: Array(example.utf8)).get()
        #expect(event.cart.items.map(\.shippingClass) == ["battery", "oversized"])
        #expect(event.cart.items[1].dimensions == ItemDimensions(length: 900, width: 600, height: 600))
        let rules = try RuleLibrary.load(path: Repository.url("examples/rules/us-acme.yaml").path)
        guard case .update(let update) = rules.quote(event.quoteRequest(now: event.occurredAt)) else {
            Issue.record("the shipping-profile example is not an update"); return
        }
        // 120.00 reaches free_over; 15.00 for the chair; tax 8.75 % of 40.00 and 80.00 = 3.50 + 7.00.
        #expect(update.shippingMethods.map { "\($0.id) \($0.amount.decimalString)" } == ["standard 15.00"])
        #expect(update.summaryItems.last?.amount.decimalString == "145.50")
        for (from, to, path) in [("\"height\": 600", "\"height\": -1", "$.cart.items[1].dimensions_mm.height"),
                                 ("\"length\": 900", "\"length\": 100001", "$.cart.items[1].dimensions_mm.length"),
                                 ("\"shipping_class\": \"battery\"", "\"shipping_class\": 7", "$.cart.items[0].shipping_class")] {
            let text = example.replacingOccurrences(of: from, with: to)
            #expect(text != example, "\(from) not found")
            #expect(Self.eventSchema.validate(try JSONReader().read(text)).contains { $0.path == path }, "\(to)")
            #expect(throws: EventRejection.self) { try AddressChangeEvent.decode(unkeyed: Array(text.utf8)).get() }
        }
    }

    /// Contract 1.1: the final-check example is valid and decodes; the schema, like the decoder,
    /// refuses a payment_authorized event without a selected method, and requires none otherwise.
    @Test func theFinalCheckEventNeedsItsSelectedMethod() throws {
        let example = try Repository.text("examples/events/payment-authorized-zip4.json")
        let event = try AddressChangeEvent.decode(unkeyed: Array(example.utf8)).get()
        #expect(event.trigger == .paymentAuthorized && event.selectedShippingMethodID == "standard")
        #expect(event.shippingAddress.postalCode == "95014-2083")
        let rules = try RuleLibrary.load(path: Repository.url("examples/rules/us-acme.yaml").path)
        guard case .update(let update) = rules.quote(event.quoteRequest(now: event.occurredAt)) else {
            Issue.record("the example's final check is not an update"); return
        }
        #expect(update.shippingMethods.map(\.id) == ["standard"])
        #expect(update.summaryItems.last?.amount.decimalString == "53.94")

        for without in [example.replacingOccurrences(of: "\"selected_shipping_method_id\": \"standard\",", with: ""),
                        example.replacingOccurrences(of: "\"selected_shipping_method_id\": \"standard\"", with: "\"selected_shipping_method_id\": null")] {
            #expect(without != example)
            #expect(!Self.eventSchema.validate(try JSONReader().read(without)).isEmpty)
            #expect(throws: EventRejection.self) { try AddressChangeEvent.decode(unkeyed: Array(without.utf8)).get() }
            let changed = without.replacingOccurrences(of: "\"payment_authorized\"", with: "\"address_changed\"")
            #expect(Self.eventSchema.validate(try JSONReader().read(changed)) == [])
        }
        let unknown = example.replacingOccurrences(of: "\"payment_authorized\"", with: "\"order_shipped\"")
        #expect(Self.eventSchema.validate(try JSONReader().read(unknown)).contains { $0.path == "$.trigger" })
        #expect(throws: EventRejection(code: .unsupportedTrigger, field: "trigger",
                                       message: "trigger must be sheet_opened, address_changed or payment_authorized",
                                       sessionID: event.sessionID, sequence: 8)) {
            try AddressChangeEvent.decode(unkeyed: Array(unknown.utf8)).get()
        }
    }

    @Test func theValidatorRefusesKeywordsItDoesNotCheck() throws {
        let schema = try SchemaValidator(JSONReader().read(#"{"type":"object","propertyNames":{"pattern":"^a"}}"#))
        #expect(schema.validate(try JSONReader().read("{}")).map(\.message) == ["the schema uses propertyNames, which this validator does not check"])
    }
}
