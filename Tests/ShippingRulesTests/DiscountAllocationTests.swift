import Testing
@testable import ShippingRules

@Suite("Discounts spread over the lines to the cent")
struct DiscountAllocationTests {
    private func bases(_ amounts: [Int64], discount: Int64) -> [Int64] {
        let lines = amounts.map { minor in
            let money = Money(minorUnits: minor, currency: .usd)
            return CartFacts.TaxableLine(base: money, unitAmount: money, category: nil)
        }
        return CartFacts.allocate(discount: discount, over: lines, total: amounts.reduce(0, +)).map(\.base.minorUnits)
    }

    @Test func leftoverCentsGoToTheLargestRemaindersEarlierLinesFirst() {
        #expect(bases([333, 333, 334], discount: -5) == [331, 332, 332])
        #expect(bases([100, 100, 100], discount: -1) == [99, 100, 100])
        #expect(bases([100, 100, 100], discount: -2) == [99, 99, 100])
        #expect(bases([2500, 1200], discount: -500) == [2162, 1038])
    }

    @Test func aDiscountBeyondTheCartOnlyZeroesIt() {
        #expect(bases([1, 1, 1], discount: -10) == [0, 0, 0])
        #expect(bases([700, 0, 300], discount: -1000) == [0, 0, 0])
    }

    @Test func noDiscountOrAnEmptyCartLeavesTheLines() {
        #expect(bases([2500, 1200], discount: 0) == [2500, 1200])
        #expect(bases([0, 0], discount: -100) == [0, 0])
    }

    @Test func productsBeyondInt64AreDividedExactly() {
        // 5e14 × (1e15 - 1) overflows an Int64: the shares are 499999999999999.5 and 0.5, a tie the first line wins.
        #expect(bases([999_999_999_999_999, 1], discount: -500_000_000_000_000) == [499_999_999_999_999, 1])
    }
}
