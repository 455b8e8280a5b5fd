import Foundation
import Testing
@testable import QuoteContract
import ShippingRules

/// Since contract 1.1 a cart item may carry a shipping class and one unit's size.
@Suite("Shipping profile members")
struct ShippingProfileDecodingTests {
    static let profiled = ContractFixtures.example(setting: "cart.items[0].shipping_class", to: .string("oversized"))

    static var sized: [UInt8] {
        let value = try! JSONReader().read(profiled)
        return JSONWriter.encode(value.replacing(PathStep.parse("cart.items[0].dimensions_mm")[...], with: size(600, 400, 400)))
    }

    @Test("a shipping class and dimensions decode to exact values")
    func decodesClassAndSize() throws {
        let event = try ContractFixtures.decode(Self.sized).get()
        let item = try #require(event.cart.items.first)
        #expect(item.shippingClass == "oversized")
        #expect(item.dimensions == ItemDimensions(length: 600, width: 400, height: 400))
        #expect(item.dimensions?.volume == 96_000_000)
        #expect(item.weightGrams == 300)
    }

    @Test("without the new members an item has no class and no size")
    func absentMembersStayNil() throws {
        let item = try #require(try ContractFixtures.decode(ContractFixtures.exampleBytes).get().cart.items.first)
        #expect(item.shippingClass == nil && item.dimensions == nil)
    }

    @Test("null counts as absent, as for every member")
    func nullIsAbsent() throws {
        let bytes = ContractFixtures.example(setting: "cart.items[0].dimensions_mm", to: .null)
        let item = try #require(try ContractFixtures.decode(bytes).get().cart.items.first)
        #expect(item.dimensions == nil)
    }

    @Test("the largest sizes and the longest class are accepted")
    func limitsAreInclusive() throws {
        let longest = String(repeating: "b", count: 64)
        let value = try JSONReader().read(ContractFixtures.example(setting: "cart.items[0].shipping_class", to: .string(longest)))
        let bytes = JSONWriter.encode(value.replacing(PathStep.parse("cart.items[0].dimensions_mm")[...], with: size(100_000, 0, 100_000)))
        let item = try #require(try ContractFixtures.decode(bytes).get().cart.items.first)
        #expect(item.shippingClass == longest)
        #expect(item.dimensions == ItemDimensions(length: 100_000, width: 0, height: 100_000))
    }

    @Test("the thorough decoder and the fast path agree on a profiled item")
    func thoroughAgrees() throws {
        let fast = try ContractFixtures.decode(Self.sized).get()
        let thorough = try AddressChangeEvent.decodeThoroughly(Self.sized, checkingKey: true, key: ContractFixtures.key).get()
        #expect(fast == thorough)
    }

    @Test("an event written with a class and a size reads back the same")
    func encodingRoundTrips() throws {
        let event = try ContractFixtures.decode(Self.sized).get()
        let again = try AddressChangeEvent.decode(event.encode(), key: ContractFixtures.key).get()
        #expect(again == event)
    }
}
