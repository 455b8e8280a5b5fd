import Testing
@testable import ShippingRules

/// With few tax layers (nearly every rule set) a quote takes the list of the layers that apply from
/// lists made at load, one for each set of them; with more, it copies each layer that applies, as
/// it always did. The two ways must give the same lines for every address.
@Suite("Tax layers taken from lists made at load")
struct LayersByMatchTests {
    /// Layers 0…n-1; layer k applies to the states whose bit k is set in their number (CA is 1,
    /// NY 2, TX 3, WA 5, OR 6, NV 7, AZ 9 …), at k+1 percent.
    static let states = ["AK", "CA", "NY", "TX", "FL", "WA", "OR", "NV", "IL", "AZ", "OH", "MA", "GA", "NJ", "VA", "MI"]

    static func rules(layers n: Int) throws -> RuleSet {
        let layers = (0..<n).map { k in
            let named = Self.states.indices.filter { $0 & (1 << k) != 0 }.map { Self.states[$0] }
            return "    - { id: l\(k), label: Layer \(k), zone: { country: US, states: [\(named.joined(separator: ", "))] }, rate: \(k + 1)% }"
        }
        return try Fixture.rules("""
            tax:
              summary: per_layer
              layers:
            \(layers.joined(separator: "\n"))
            shipping_methods:
              - { id: standard, label: Standard, price: 5.00 }
            """)
    }

    /// The tax lines of a quote for `state`, as `id amount`.
    static func taxes(_ rules: RuleSet, _ state: String) throws -> [String] {
        let address = PartialAddress(city: "Springfield", state: state, postalCode: "10001", countryCode: "US")
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

    @Test func eachStatePaysTheLayersWhoseBitsItsNumberHasBothWays() throws {
        // 100.00 of goods, shipping not taxed: layer k charges k+1 percent, so `l<k> <k+1>.00`.
        for n in [6, 7] {
            let rules = try Self.rules(layers: n)
            for (number, state) in Self.states.enumerated() {
                let expected = (0..<n).filter { number & (1 << $0) != 0 }.map { "tax-l\($0) \($0 + 1).00" }
                #expect(try Self.taxes(rules, state) == expected, "\(n) layers, \(state)")
            }
        }
        #expect(try Self.taxes(Self.rules(layers: 6), "MI") == ["tax-l0 1.00", "tax-l1 2.00", "tax-l2 3.00", "tax-l3 4.00"])
        #expect(try Self.taxes(Self.rules(layers: 7), "AK") == [])
    }
}
