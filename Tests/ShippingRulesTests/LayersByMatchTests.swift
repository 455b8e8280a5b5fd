import Testing
@testable import ShippingRules

/// With few tax layers (nearly every rule set) a quote takes the list of the layers that apply from
/// lists made at load, one for each set of them; with more, it copies each layer that applies, as
/// it always did. The two ways must give the same lines for every address.
@Suite("Tax layers taken from lists made at load")
struct LayersByMatchTests {
    /// Address n (0…127) is in state `states[n & 15]`, city `cities[(n >> 4) & 3]` and postal code
    /// 20002 when bit 6 is set, else 10001. Layer k applies where bit k of n is set: layers 0-3 by
    /// state, 4 and 5 by city, 6 by postal code; layer k charges k+1 percent.
    static let states = ["AK", "CA", "NY", "TX", "FL", "WA", "OR", "NV", "IL", "AZ", "OH", "MA", "GA", "NJ", "VA", "MI"]
    static let cities = ["Akron", "Alton", "Bristol", "Camden"]

    static func rules(layers n: Int) throws -> RuleSet {
        func zone(_ k: Int) -> String {
            switch k {
            case 0..<4: return "states: [" + states.indices.filter { $0 & (1 << k) != 0 }.map { states[$0] }.joined(separator: ", ") + "]"
            case 4, 5: return "cities: [" + cities.indices.filter { $0 & (1 << (k - 4)) != 0 }.map { cities[$0] }.joined(separator: ", ") + "]"
            default: return "postal_codes: [\"20002\"]"
            }
        }
        let layers = (0..<n).map { k in "    - { id: l\(k), label: Layer \(k), zone: { country: US, \(zone(k)) }, rate: \(k + 1)% }" }
        return try Fixture.rules("""
            tax:
              summary: per_layer
              layers:
            \(layers.joined(separator: "\n"))
            shipping_methods:
              - { id: standard, label: Standard, price: 5.00 }
            """)
    }

    /// The tax lines of a quote for address `n`, as `id amount`.
    static func taxes(_ rules: RuleSet, _ n: Int) throws -> [String] {
        let address = PartialAddress(city: cities[(n >> 4) & 3], state: states[n & 15], postalCode: n & 64 != 0 ? "20002" : "10001",
                                     countryCode: "US")
        let update = try #require(rules.quote(Fixture.request(address: address, cart: Fixture.cart("100.00"), selected: nil)).update)
        return update.summaryItems.filter { $0.id.hasPrefix("tax") }.map { "\($0.id) \($0.amount.decimalString)" }
    }

    @Test func everySetOfSixLayersHasItsListInFileOrder() throws {
        let rules = try Self.rules(layers: 6)
        #expect(rules.layersByMatch.count == 64)
        for bits in 0..<64 {
            #expect(rules.layersByMatch[bits].map(\.id) == (0..<6).filter { bits & (1 << $0) != 0 }.map { "l\($0)" })
        }
        #expect(try Self.rules(layers: 7).layersByMatch.isEmpty)
    }

    @Test func eachAddressPaysTheLayersWhoseBitsItsNumberHasBothWays() throws {
        // 100.00 of goods, shipping not taxed: layer k charges k+1 percent, so `tax-l<k> <k+1>.00`.
        for n in [6, 7] {
            let rules = try Self.rules(layers: n)
            for address in 0..<128 {
                let expected = (0..<n).filter { address & (1 << $0) != 0 }.map { "tax-l\($0) \($0 + 1).00" }
                #expect(try Self.taxes(rules, address) == expected, "\(n) layers, address \(address)")
            }
        }
        // Spelled out: Camden (both city layers), MI (all four state layers), 20002 (layer 6 of 7).
        #expect(try Self.taxes(Self.rules(layers: 7), 127) == (0..<7).map { "tax-l\($0) \($0 + 1).00" })
    }
}
