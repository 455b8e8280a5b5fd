import Testing
@testable import ShippingRules

/// Shipping profiles: methods refused for some shipping classes, surcharges per class, and
/// dimensional weight where a weight-priced method asks for it.
@Suite struct ShippingProfileTests {
    static let rules = try! Fixture.rules("""
    shipping_methods:
      - id: ground
        label: Ground
        price:
          base: 5.00
          free_over: 100.00
          class_surcharges:
            - { class: oversized, amount: 15.00, per: item, label: Oversized }
            - { class: fragile, amount: 2.50, per: cart }
      - id: air
        label: Air
        when: { classes_not_in: [battery, aerosol] }
        price:
          by: weight_grams
          dimensional_divisor: 5000
          tiers:
            - { up_to: 1000, amount: 12.00 }
            - { up_to: 5000, amount: 18.00 }
          above: 25.00
      - id: freight
        label: Freight
        when: { classes_in: [oversized] }
        price: 60.00
    """)

    static func item(_ id: String, _ amount: String, quantity: Int = 1, grams: Int? = nil, shippingClass: String? = nil,
                     size: ItemDimensions? = nil) -> CartItem {
        CartItem(id: id, label: id, quantity: quantity, unitAmount: Fixture.usd(amount), weightGrams: grams,
                 shippingClass: shippingClass, dimensions: size)
    }

    static func methods(_ items: CartItem...) throws -> [String] {
        let update = try #require(rules.quote(Fixture.request(cart: Cart(items: items), selected: nil)).update)
        return update.shippingMethods.map { "\($0.id) \($0.amount.decimalString)" }
    }

    static func trace(_ items: CartItem...) -> [String] {
        rules.explain(Fixture.request(cart: Cart(items: items), selected: nil)).trace
    }

    @Test func aCartWithABatteryIsNotOfferedAir() throws {
        #expect(try Self.methods(Self.item("phone", "20.00", grams: 300, shippingClass: "battery"), Self.item("case", "10.00", grams: 100))
                == ["ground 5.00"])
        #expect(Self.trace(Self.item("phone", "20.00", grams: 300, shippingClass: "battery"))
                .contains("method air not offered: the cart holds class battery"))
    }

    @Test func withoutABatteryAirIsOffered() throws {
        #expect(try Self.methods(Self.item("case", "10.00", grams: 100, shippingClass: "small")) == ["ground 5.00", "air 12.00"])
    }

    @Test func eachOversizedUnitPaysItsSurchargeAndFreightIsOffered() throws {
        // 5.00 + 2 × 15.00
        #expect(try Self.methods(Self.item("chair", "20.00", quantity: 2, grams: 4000, shippingClass: "oversized"))
                == ["ground 35.00", "air 25.00", "freight 60.00"])
        #expect(Self.trace(Self.item("chair", "20.00", quantity: 2, grams: 4000, shippingClass: "oversized"))
                .contains("method ground offered at 35.00 (class surcharge Oversized +15.00 × 2 = +30.00)"))
    }

    @Test func theClassSurchargeStaysWhenShippingIsFree() throws {
        // 150.00 of goods reaches free_over: the base falls, the handling fee for one sofa does not.
        #expect(try Self.methods(Self.item("sofa", "150.00", grams: 30000, shippingClass: "oversized")).first == "ground 15.00")
    }

    @Test func aPerCartSurchargeIsChargedOnceWhateverTheUnits() throws {
        #expect(try Self.methods(Self.item("glass", "5.00", quantity: 3, grams: 100, shippingClass: "fragile")).first == "ground 7.50")
    }

    @Test func aBulkyLightParcelIsPricedByItsDimensionalWeight() throws {
        // 300 × 300 × 300 mm = 27,000,000 mm³ ÷ 5000 = 5400 g, over the 800 g it weighs: above the last tier.
        let lamp = Self.item("lamp", "30.00", grams: 800, size: ItemDimensions(length: 300, width: 300, height: 300))
        #expect(try Self.methods(lamp) == ["ground 5.00", "air 25.00"])
        #expect(Self.trace(lamp).contains(
            "method air offered at 25.00 (dimensional weight: billable 5400 g (actual 800 g, volume ÷ 5000); above the last tier (weight_grams 5400))"))
        // Without its size the lamp is priced by its weight.
        #expect(try Self.methods(Self.item("lamp", "30.00", grams: 800)) == ["ground 5.00", "air 12.00"])
    }

    @Test func aDenseParcelKeepsItsActualWeight() throws {
        // 400 × 200 × 100 mm ÷ 5000 = 1600 g, below the 2000 g it weighs: the second tier.
        #expect(try Self.methods(Self.item("anvil", "30.00", grams: 2000, size: ItemDimensions(length: 400, width: 200, height: 100)))
                == ["ground 5.00", "air 18.00"])
    }

    @Test func dimensionalWeightIsPerUnitRoundedUpToTheGram() throws {
        let cube = Cart(items: [
            Self.item("cube", "1.00", quantity: 2, grams: 100, size: ItemDimensions(length: 101, width: 101, height: 101)),
            Self.item("note", "1.00", grams: 50),
        ])
        let facts = try CartFacts(cube, currency: .usd)
        // 1,030,301 mm³ ÷ 5000 = 206.06 → 207 g a unit, twice, plus the 50 g item without a size.
        #expect(facts.billableWeightGrams(divisor: 5000) == 464)
        #expect(facts.weightGrams == 250)
        // A divisor that leaves the volume below the weight changes nothing.
        #expect(facts.billableWeightGrams(divisor: 1_000_000) == 250)
    }

    @Test func aMethodWithoutADivisorIgnoresSizes() throws {
        let rules = try Fixture.rules("""
        shipping_methods:
          - { id: post, label: Post, price: { by: weight_grams, tiers: [{ up_to: 1000, amount: 4.00 }], above: 9.00 } }
        """)
        let lamp = Self.item("lamp", "30.00", grams: 800, size: ItemDimensions(length: 300, width: 300, height: 300))
        let update = try #require(rules.quote(Fixture.request(cart: Cart(items: [lamp]), selected: nil)).update)
        #expect(update.shippingMethods.map(\.amount) == [Fixture.usd("4.00")])
    }

    @Test func aSurchargeBeyondTheLargestAmountWithdrawsTheMethodInsteadOfTrapping() throws {
        let rules = try Fixture.rules("""
        shipping_methods:
          - { id: freight, label: Freight, price: { base: 1.00, class_surcharges: [{ class: pallet, amount: 9999999999.99, per: item }] } }
          - { id: post, label: Post, price: 4.00 }
        """)
        // 999,999,999,999 cents × 1,000,000 units is far beyond 10^15 minor units.
        let cart = Cart(items: [Self.item("brick", "0.01", quantity: 1_000_000, shippingClass: "pallet")])
        let explanation = rules.explain(Fixture.request(cart: cart, selected: nil))
        #expect(explanation.result.update?.shippingMethods.map(\.id) == ["post"])
        #expect(explanation.trace.contains { $0.contains("class surcharge pallet × 1000000 is beyond the largest amount") })
    }

    @Test func rulesThatMisuseProfilesAreRefusedWithWhatToWrite() {
        let withoutWeight = Fixture.loadError("""
        version: 1
        payee: Shop
        currencies: [USD]
        shipping_methods:
          - { id: a, label: A, price: { by: cart_value, dimensional_divisor: 5000, tiers: [{ up_to: 10, amount: 1.00 }] } }
        """)
        #expect(withoutWeight?.description.contains("dimensional_divisor sets the billable weight; it needs by: weight_grams") == true)
        let zeroDivisor = Fixture.loadError("""
        version: 1
        payee: Shop
        currencies: [USD]
        shipping_methods:
          - { id: a, label: A, price: { by: weight_grams, dimensional_divisor: 0, tiers: [{ up_to: 10, amount: 1.00 }] } }
        """)
        #expect(zeroDivisor != nil)
        let noPer = Fixture.loadError("""
        version: 1
        payee: Shop
        currencies: [USD]
        shipping_methods:
          - { id: a, label: A, price: { base: 1.00, class_surcharges: [{ class: oversized, amount: 15.00 }] } }
        """)
        #expect(noPer?.description.contains("item (each unit of the class) or cart (once)") == true)
        let badPer = Fixture.loadError("""
        version: 1
        payee: Shop
        currencies: [USD]
        shipping_methods:
          - { id: a, label: A, price: { base: 1.00, class_surcharges: [{ class: oversized, amount: 15.00, per: pallet }] } }
        """)
        #expect(badPer?.description.contains("item|cart") == true)
        let emptyClasses = Fixture.loadError("""
        version: 1
        payee: Shop
        currencies: [USD]
        shipping_methods:
          - { id: a, label: A, when: { classes_not_in: [] }, price: 1.00 }
        """)
        #expect(emptyClasses?.description.contains("shipping classes like [battery, oversized]") == true)
    }
}
