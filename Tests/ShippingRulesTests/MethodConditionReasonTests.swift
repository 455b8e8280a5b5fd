import Foundation
import Testing
@testable import ShippingRules

/// A method's conditions write why they refuse only for an explanation: a plain quote gets an
/// empty reason, exactly where the explanation gets one.
@Suite("method condition reasons")
struct MethodConditionReasonTests {
    static let conditions: [MethodCondition] = [
        .orderBefore(minutes: 14 * 60), .weekdays([1, 2, 3, 4, 5]),
        .cartValueAtLeast(PriceAmount(minorUnitsByCurrency: ["USD": 2_500])), .cartValueBelow(PriceAmount(minorUnitsByCurrency: ["USD": 2_500])),
        .maxWeightGrams(500), .paymentMethodTypes(["APPLE_PAY"]), .paymentMethodTypes(["GOOGLE_PAY"]),
        .triggers(["address_changed"]), .triggers(["sheet_opened"]), .classesIn(["battery"]), .classesNotIn(["battery"]),
    ]

    static let carts: [Cart] = [
        Fixture.contractCart,   // 45.00 after the promo, 600 g, no class
        Cart(items: [CartItem(id: "phone", label: "Phone", quantity: 1, unitAmount: Fixture.usd("10.00"), weightGrams: 200,
                              shippingClass: "battery")], discounts: []),
    ]

    /// Saturday 05:00, Monday 10:00 and 16:00 in Los Angeles, and Thanksgiving (a warehouse holiday) 09:00.
    static let instants = ["2026-10-10T12:00:00Z", "2026-10-12T17:00:00Z", "2026-10-12T23:00:00Z", "2026-11-26T17:00:00Z"]

    @Test func aPlainQuoteGetsAnEmptyReasonWhereAnExplanationGetsOne() throws {
        let calendar = try #require(Fixture.acme.calendar)
        var refused = 0, held = 0
        for condition in Self.conditions {
            for cart in Self.carts {
                let facts = try CartFacts(cart, currency: .usd)
                for now in Self.instants {
                    let request = Fixture.request(cart: cart, at: now)
                    let explained = condition.mismatch(cart: facts, request: request, calendar: calendar, explaining: true)
                    let plain = condition.mismatch(cart: facts, request: request, calendar: calendar, explaining: false)
                    #expect((explained == nil) == (plain == nil), "\(condition) \(now)")
                    if let explained {
                        refused += 1
                        #expect(!explained.isEmpty && plain == "", "\(condition) \(now)")
                    } else {
                        held += 1
                    }
                }
            }
        }
        // Per cart and instant (8): order before 14:00 holds on Saturday 05:00 and Monday 10:00 (4);
        // weekdays on the two Mondays (4, not Thanksgiving: a holiday); at least 25.00 for the first
        // cart (4), below 25.00 for the second (4); at most 500 g for the second (4); Apple Pay (8);
        // Google Pay (0); address changes (8); sheet opened (0); a battery for the second (4); no
        // battery for the first (4).
        #expect(held == 4 + 4 + 4 + 4 + 4 + 8 + 0 + 8 + 0 + 4 + 4)
        #expect(refused == 11 * 8 - held)
        // Without a warehouse, the clock's conditions refuse with a fixed text either way.
        let facts = try CartFacts(Fixture.contractCart, currency: .usd)
        for condition in [MethodCondition.orderBefore(minutes: 14 * 60), .weekdays([1, 2, 3, 4, 5])] {
            for explaining in [true, false] {
                #expect(condition.mismatch(cart: facts, request: Fixture.request(), calendar: nil, explaining: explaining) == "no warehouse clock")
            }
        }
    }
}
