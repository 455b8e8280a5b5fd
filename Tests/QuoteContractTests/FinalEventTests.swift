import Foundation
import Testing
@testable import QuoteContract
import ShippingRules

/// Contract 1.1's final check: `trigger: payment_authorized`, the selected method required, and a
/// trigger no version knows dead-lettered as `unsupported_trigger`.
@Suite("Final check events")
struct FinalEventTests {
    static func final(setting path: String? = nil, to value: JSONValue? = nil) -> [UInt8] {
        var event = ContractFixtures.exampleValue
        event = event.replacing(PathStep.parse("trigger")[...], with: .string("payment_authorized"))
        event = event.replacing(PathStep.parse("shipping_address.postal_code")[...], with: .string("95014-3101"))
        if let path { event = event.replacing(PathStep.parse(path)[...], with: value) }
        return JSONWriter.encode(event)
    }

    @Test("a payment_authorized event decodes with the selected method and the full postal code")
    func decodesFinalEvent() throws {
        let event = try ContractFixtures.decode(Self.final()).get()
        #expect(event.trigger == .paymentAuthorized)
        #expect(event.selectedShippingMethodID == "standard")
        #expect(event.shippingAddress == PartialAddress(city: "Cupertino", state: "CA", postalCode: "95014-3101", countryCode: "US"))
        #expect(event.sequence == 7)
        let request = event.quoteRequest(now: event.occurredAt)
        #expect(request.trigger == .paymentAuthorized && request.selectedShippingMethodID == "standard")
    }

    @Test("the quick path leaves a payment_authorized event to the full decoder, which reads it")
    func scannerDefersFinalEvents() throws {
        #expect(ScannedEvent(Self.final(), key: ContractFixtures.key) == nil)
        let incoming = try IncomingEvent.read(Self.final(), key: ContractFixtures.key).get()
        #expect(incoming.event().trigger == .paymentAuthorized)
        #expect(incoming.sessionID == ContractFixtures.sessionID && incoming.sequence == 7)
    }

    @Test("payment_authorized without a selected method is missing_field, still answerable", arguments: [nil, JSONValue.null])
    func finalEventNeedsTheSelectedMethod(_ value: JSONValue?) throws {
        let rejection = try #require(ContractFixtures.rejection(Self.final(setting: "selected_shipping_method_id", to: value)))
        #expect(rejection.code == .missingField)
        #expect(rejection.field == "selected_shipping_method_id")
        #expect(rejection.message == "selected_shipping_method_id is required when trigger is payment_authorized")
        #expect(rejection.sessionID == ContractFixtures.sessionID && rejection.sequence == 7)
        #expect(rejection.description == "missing_field: selected_shipping_method_id is required when trigger is payment_authorized")
    }

    @Test("an empty selected method on a final event is invalid_field, as on any event")
    func finalEventSelectedMethodMustBeAnIdentifier() throws {
        let rejection = try #require(ContractFixtures.rejection(Self.final(setting: "selected_shipping_method_id", to: .string(""))))
        #expect(rejection.code == .invalidField)
        #expect(rejection.field == "selected_shipping_method_id")
    }

    @Test("the sheet's triggers still do without a selected method")
    func sheetTriggersNeedNoSelection() throws {
        for trigger in ["sheet_opened", "address_changed"] {
            var value = ContractFixtures.exampleValue.replacing(PathStep.parse("trigger")[...], with: .string(trigger))
            value = value.replacing(PathStep.parse("selected_shipping_method_id")[...], with: nil)
            let event = try ContractFixtures.decode(JSONWriter.encode(value)).get()
            #expect(event.selectedShippingMethodID == nil)
            #expect(event.trigger.rawValue == trigger)
        }
    }

    @Test("a trigger this version does not know is unsupported_trigger, answerable, without the value")
    func unknownTriggerIsUnsupported() throws {
        let bytes = JSONWriter.encode(ContractFixtures.exampleValue.replacing(PathStep.parse("trigger")[...], with: .string("order_placed")))
        let rejection = try #require(ContractFixtures.rejection(bytes))
        #expect(rejection.code == .unsupportedTrigger)
        #expect(rejection.field == "trigger")
        #expect(rejection.message == "trigger must be sheet_opened, address_changed or payment_authorized")
        #expect(rejection.sessionID == ContractFixtures.sessionID && rejection.sequence == 7)
        #expect(rejection.description == "unsupported_trigger: trigger must be sheet_opened, address_changed or payment_authorized")
        let reply = try #require(QuoteReply(rejecting: rejection, computedAt: ContractFixtures.date("2026-10-10T12:00:00Z")))
        #expect(reply.outcome == .rejected(QuoteRejection(code: "unsupported_trigger",
                                                          message: "trigger must be sheet_opened, address_changed or payment_authorized")))
    }

    @Test("a final event encodes the trigger and round-trips")
    func finalEventRoundTrips() throws {
        let event = try ContractFixtures.decode(Self.final()).get()
        let text = String(decoding: event.encode(), as: UTF8.self)
        #expect(text.contains(#""trigger":"payment_authorized""#))
        #expect(text.contains(#""shipping_address":{"city":"Cupertino","state":"CA","postal_code":"95014-3101","country_code":"US"}"#))
        #expect(try ContractFixtures.decode(event.encode()).get() == event)
    }
}
