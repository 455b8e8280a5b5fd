import Foundation
import Testing
@testable import QuoteContract
import ShippingRules

@Suite("Event decoding")
struct EventDecodingTests {
    @Test("the contract's example decodes to exact values")
    func decodesContractExample() throws {
        let event = try ContractFixtures.decode(ContractFixtures.exampleBytes).get()
        let usd = Currency.usd
        #expect(event.version == 1)
        #expect(event.eventID == "01JB3Y3T2J7Q9V6K0M8F4R2D1C")
        #expect(event.sessionID == "9a0c6f0e-4b1e-4c1a-9a55-3c2f1d7e8b10")
        #expect(event.sequence == 7)
        #expect(event.merchant == "acme")
        #expect(event.paymentMethodType == "APPLE_PAY")
        #expect(event.trigger == .addressChanged)
        #expect(event.currency == usd)
        #expect(event.shippingAddress == PartialAddress(city: "Cupertino", state: "CA", postalCode: "95014", countryCode: "US"))
        #expect(event.cart.items == [CartItem(id: "sku-1", label: "T-shirt", quantity: 2,
                                              unitAmount: Money(minorUnits: 2500, currency: usd),
                                              taxCategory: "apparel", weightGrams: 300)])
        #expect(event.cart.discounts == [Discount(id: "promo", label: "Promo", amount: Money(minorUnits: -500, currency: usd))])
        #expect(event.cart.subtotal == nil)
        #expect(event.selectedShippingMethodID == "standard")
        #expect(RFC3339.epochMilliseconds(event.occurredAt) == 1_791_633_600_123)
        #expect(RFC3339.epochMilliseconds(try #require(event.replyBy)) == 1_791_633_625_000)
    }

    @Test("a minimal event: optional members absent or null, every address field missing")
    func decodesMinimalEvent() throws {
        let text = """
        {"version":1,"session_id":"s","sequence":1,"payment_method_type":"GOOGLE_PAY","trigger":"sheet_opened",
         "currency":"JPY","shipping_address":{"city":null},"cart":{"subtotal":{"currency":"JPY","value":1000}},
         "event_id":null,"merchant":null,"selected_shipping_method_id":null,"reply_by":null,
         "occurred_at":"2026-10-10T12:00:00Z"}
        """
        let event = try AddressChangeEvent.decode(text.bytes, key: "s".bytes).get()
        #expect(event.eventID == nil && event.merchant == nil && event.selectedShippingMethodID == nil && event.replyBy == nil)
        #expect(event.trigger == .sheetOpened)
        #expect(event.shippingAddress == PartialAddress())
        #expect(event.cart == Cart(subtotal: Money(minorUnits: 1000, currency: .jpy)))
    }

    @Test("unknown members are ignored at every level, for forward compatibility")
    func ignoresUnknownMembers() throws {
        var value = ContractFixtures.exampleValue
        value = value.replacing(PathStep.parse("gift_wrap")[...], with: .bool(true))
        value = value.replacing(PathStep.parse("shipping_address.plus_code")[...], with: .string("849VCWC8+R9"))
        value = value.replacing(PathStep.parse("cart.items[0].color")[...], with: .array([.string("red")]))
        let event = try ContractFixtures.decode(JSONWriter.encode(value)).get()
        #expect(event == (try ContractFixtures.decode(ContractFixtures.exampleBytes).get()))
    }

    @Test("amounts are read exactly from numbers and decimal strings", arguments: [
        ("USD", JSONValue.number("0.1"), Int64(10)),
        ("USD", .string("0.1"), 10),
        ("USD", .number("25"), 2500),
        ("USD", .number("25.000"), 2500),
        ("USD", .number("2.5e1"), 2500),
        ("USD", .number("-0"), 0),
        ("USD", .string("19.99"), 1999),
        ("JPY", .number("1000"), 1000),
        ("JPY", .string("1000"), 1000),
        ("KWD", .number("1.234"), 1234),
        ("KWD", .string("1.234"), 1234),
    ])
    func readsAmountsExactly(currency: String, value: JSONValue, minorUnits: Int64) throws {
        var event = ContractFixtures.exampleValue
        for (path, newValue) in [("currency", JSONValue.string(currency)), ("cart.items[0].unit_amount", amount(currency, value)),
                                 ("cart.discounts[0].amount", amount(currency, .number("0")))] {
            event = event.replacing(PathStep.parse(path)[...], with: newValue)
        }
        let decoded = try ContractFixtures.decode(JSONWriter.encode(event)).get()
        #expect(decoded.cart.items[0].unitAmount == Money(minorUnits: minorUnits, currency: Currency(code: currency)!))
    }

    @Test("100.005 is refused for USD: it has more decimals than cents")
    func refusesSubCentUSD() throws {
        let rejection = try #require(ContractFixtures.rejection(
            ContractFixtures.example(setting: "cart.items[0].unit_amount.value", to: .number("100.005"))))
        #expect(rejection.code == .invalidField)
        #expect(rejection.field == "cart.items[0].unit_amount.value")
        #expect(rejection.message == "cart.items[0].unit_amount.value must be an exact decimal with at most 2 decimals for USD")
    }

    @Test("a subtotal equal to the items' sum is accepted")
    func acceptsMatchingSubtotal() throws {
        let event = try ContractFixtures.decode(
            ContractFixtures.example(setting: "cart.subtotal", to: amount("USD", .string("50.00")))).get()
        #expect(event.cart.subtotal == Money(minorUnits: 5000, currency: .usd))
    }

    @Test("session ids count characters, not bytes: 128 accented letters pass")
    func sessionIDLengthInCharacters() throws {
        let id = String(repeating: "é", count: 128)
        let event = try AddressChangeEvent.decode(ContractFixtures.example(setting: "session_id", to: .string(id)), key: id.bytes).get()
        #expect(event.sessionID == id)
    }

    @Test("decode(unkeyed:) skips only the key rule")
    func unkeyedDecoding() throws {
        let event = try AddressChangeEvent.decode(unkeyed: ContractFixtures.exampleBytes).get()
        #expect(event.sequence == 7)
        #expect(ContractFixtures.rejection(ContractFixtures.exampleBytes, key: "other".bytes)?.code == .keyMismatch)
    }

    @Test("the quote request carries the event's facts and the caller's clock")
    func quoteRequest() throws {
        let event = try ContractFixtures.decode(ContractFixtures.exampleBytes).get()
        let now = Date(timeIntervalSince1970: 1_791_633_601)
        let request = event.quoteRequest(now: now)
        #expect(request.merchant == "acme" && request.currency == .usd && request.now == now)
        #expect(request.address == event.shippingAddress && request.cart == event.cart)
        #expect(request.selectedShippingMethodID == "standard" && request.trigger == .addressChanged)
    }
}

@Suite("Event encoding")
struct EventEncodingTests {
    @Test("encode then decode gives the same event")
    func roundTrip() throws {
        let event = try ContractFixtures.decode(ContractFixtures.exampleBytes).get()
        let again = try ContractFixtures.decode(event.encode()).get()
        #expect(again == event)
    }

    @Test("the contract's example encodes compactly, amounts as decimal strings")
    func encodesExample() throws {
        let event = try ContractFixtures.decode(ContractFixtures.exampleBytes).get()
        let expected = #"{"version":1,"event_id":"01JB3Y3T2J7Q9V6K0M8F4R2D1C","session_id":"9a0c6f0e-4b1e-4c1a-9a55-3c2f1d7e8b10","sequence":7,"merchant":"acme","payment_method_type":"APPLE_PAY","trigger":"address_changed","currency":"USD","shipping_address":{"city":"Cupertino","state":"CA","postal_code":"95014","country_code":"US"},"cart":{"items":[{"id":"sku-1","label":"T-shirt","quantity":2,"unit_amount":{"currency":"USD","value":"25.00"},"tax_category":"apparel","weight_grams":300}],"discounts":[{"id":"promo","label":"Promo","amount":{"currency":"USD","value":"-5.00"}}]},"selected_shipping_method_id":"standard","occurred_at":"2026-10-10T12:00:00.123Z","reply_by":"2026-10-10T12:00:25.000Z"}"#
        #expect(String(decoding: event.encode(), as: UTF8.self) == expected)
    }

    @Test("absent optionals are left out, and a JPY subtotal has no decimals")
    func encodesMinimalEvent() throws {
        let event = AddressChangeEvent(sessionID: "s-1", sequence: 3, paymentMethodType: "APPLE_PAY", trigger: .sheetOpened,
                                       currency: .jpy, shippingAddress: PartialAddress(countryCode: "JP"),
                                       cart: Cart(subtotal: Money(minorUnits: 1000, currency: .jpy)),
                                       occurredAt: Date(timeIntervalSince1970: 0))
        let expected = #"{"version":1,"session_id":"s-1","sequence":3,"payment_method_type":"APPLE_PAY","trigger":"sheet_opened","currency":"JPY","shipping_address":{"country_code":"JP"},"cart":{"items":[],"discounts":[],"subtotal":{"currency":"JPY","value":"1000"}},"occurred_at":"1970-01-01T00:00:00.000Z"}"#
        #expect(String(decoding: event.encode(), as: UTF8.self) == expected)
        #expect(try AddressChangeEvent.decode(event.encode(), key: "s-1".bytes).get() == event)
    }
}
