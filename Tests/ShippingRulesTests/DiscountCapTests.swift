import Testing
@testable import ShippingRules

@Suite("Discounts take the goods to zero, never below")
struct DiscountCapTests {
    private func cap(_ amounts: [String], goods: Int64) -> (charged: [String], cappedFrom: [String]) {
        let discounts = amounts.enumerated().map { Discount(id: "d\($0)", label: "D\($0)", amount: Fixture.usd($1)) }
        let (charged, cappedFrom) = CartFacts.cap(discounts, at: goods)
        return (charged.map { "\($0.id) \($0.amount.decimalString)" }, cappedFrom.map(\.decimalString))
    }

    @Test func aDiscountLargerThanTheCartChargesOnlyShipping() throws {
        // us-acme, Cupertino: $10.00 of goods, a $50.00 promo. Before, the total was -45.00 and the quote unserviceable.
        let explained = Fixture.acme.explain(Fixture.request(cart: Fixture.cart("10.00", discount: "-50.00")))
        let update = try #require(explained.result.update)
        #expect(update.summaryItems.lines == ["subtotal Subtotal 10.00", "discount Promo -10.00", "shipping Shipping 5.00",
                                              "tax Tax 0.00", "total ACME Inc. 5.00"])
        #expect(update.shippingMethods.map { $0.summaryItems.last!.amount.decimalString } == ["5.00", "12.00"])
        #expect(explained.trace.contains("discounts -50.00 capped at the goods' value 10.00: charged -10.00"))
    }

    @Test func discountsApplyInOrderAndTheOnesThatFindNothingLeftDropOut() {
        let result = cap(["-8.00", "-5.00", "-1.00"], goods: 1000)
        #expect(result.charged == ["d0 -8.00", "d1 -2.00"])
        #expect(result.cappedFrom == ["-5.00", "-1.00"])
    }

    @Test func aDiscountEqualToTheGoodsIsNotCapped() throws {
        let explained = Fixture.acme.explain(Fixture.request(cart: Fixture.cart("10.00", discount: "-10.00")))
        let update = try #require(explained.result.update)
        #expect(update.summaryItems.lines == ["subtotal Subtotal 10.00", "discount Promo -10.00", "shipping Shipping 5.00",
                                              "tax Tax 0.00", "total ACME Inc. 5.00"])
        #expect(!explained.trace.contains { $0.hasPrefix("discounts") })
    }

    @Test func zeroGoodsTakeNoDiscountAndZeroDiscountsAreLeftOut() {
        #expect(cap(["-1.00", "0.00"], goods: 0) == (charged: [], cappedFrom: ["-1.00"]))
        #expect(cap(["0.00", "-3.00"], goods: 500) == (charged: ["d1 -3.00"], cappedFrom: []))
    }
}
