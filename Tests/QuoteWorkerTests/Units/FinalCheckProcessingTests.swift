import Foundation
import Kafka
import QuoteContract
@testable import QuoteWorker
import ShippingRules
import Testing

/// Contract 1.1 through the worker's processor with the example rules: a `payment_authorized`
/// event is answered with the selected method alone, and an unknown trigger is dead-lettered as
/// `unsupported_trigger` with a `rejected` reply.
@Suite struct FinalCheckProcessingTests {
    static let rules: RuleSet = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/rules/us-acme.yaml").path
        return try! RuleSet.load(contentsOfFile: path)
    }()

    let clock = ManualClock(WorkerHarness.now)

    func processor() -> EventProcessor {
        EventProcessor(settings: .init(topics: .defaults, defaultTimeToLive: 30), engine: Self.rules, clock: clock)
    }

    static func final(_ session: String, selected: String, postalCode: String = "95014-2083") -> KafkaMessage {
        let event = AddressChangeEvent(eventID: "evt-\(session)", sessionID: session, sequence: 5, merchant: "acme",
                                       paymentMethodType: "APPLE_PAY", trigger: .paymentAuthorized, currency: .usd,
                                       shippingAddress: PartialAddress(city: "Cupertino", state: "CA", postalCode: postalCode, countryCode: "US"),
                                       cart: .twoShirts, selectedShippingMethodID: selected, occurredAt: WorkerHarness.now)
        return EventProcessorTests.record(event, offset: 11)
    }

    func reply(_ decided: [ProcessedRecord]) throws -> QuoteReply {
        let replies = decided.flatMap(\.chains).flatMap(\.records).filter { $0.topic == Topics.defaultQuoteReplies }
        try #require(replies.count == 1)
        return try QuoteReply.decode(replies[0].value)
    }

    @Test func theSelectedMethodIsAnsweredAloneWithItsTotal() throws {
        var p = processor()
        let decided = p.process([Self.final("f-1", selected: "express")])
        #expect(decided.map(\.disposition) == [.answered(outcome: "update")])
        let reply = try reply(decided)
        #expect(reply.sequence == 5 && reply.eventID == "evt-f-1" && reply.rulesVersion == Self.rules.version)
        guard case .update(let update) = reply.outcome else { Issue.record("not an update: \(reply.outcome)"); return }
        #expect(update.shippingMethods.map(\.id) == ["express"])
        #expect(update.summaryItems.map { "\($0.id) \($0.amount.decimalString)" }
                == ["subtotal 50.00", "discount -5.00", "shipping 12.00", "tax 3.94", "total 60.94"])
    }

    @Test func aMethodGoneAtTheFullAddressIsUnserviceableWithItsCode() throws {
        var p = processor()
        // same-day serves the Bay Area only: Los Angeles never gets it, not even the one the customer chose.
        let decided = p.process([Self.final("f-2", selected: "same-day", postalCode: "90012-3001")])
        #expect(decided.map(\.disposition) == [.answered(outcome: "unserviceable")])
        #expect(try reply(decided).outcome == .unserviceable([ShippingError(
            code: "SHIPPING_METHOD_UNAVAILABLE",
            message: "The selected shipping method is not available for this address. Choose another method.")]))
    }

    @Test func anUnknownTriggerIsDeadLetteredAsUnsupportedAndAnsweredRejected() throws {
        var p = processor()
        let text = String(decoding: Self.final("f-3", selected: "standard").value, as: UTF8.self)
            .replacingOccurrences(of: "\"payment_authorized\"", with: "\"order_shipped\"")
        let decided = p.process([EventProcessorTests.raw(text, offset: 12, key: "f-3")])
        #expect(decided.map(\.disposition) == [.deadLettered(.unsupportedTrigger)])
        let records = decided[0].chains.map { $0.records }
        #expect(records.map { $0.map(\.topic) } == [[Topics.defaultDeadLetters], [Topics.defaultQuoteState], [Topics.defaultQuoteReplies]])
        let letter = records[0][0]
        #expect(letter.value == Array(text.utf8))
        #expect(letter.headers.prefix(2).map { String(decoding: $0.value ?? [], as: UTF8.self) }
                == ["unsupported_trigger", "trigger must be sheet_opened, address_changed or payment_authorized"])
        #expect(try QuoteReply.decode(records[2][0].value).outcome == .rejected(QuoteRejection(
            code: "unsupported_trigger", message: "trigger must be sheet_opened, address_changed or payment_authorized")))
    }
}
