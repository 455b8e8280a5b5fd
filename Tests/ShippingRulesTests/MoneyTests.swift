import Testing
@testable import ShippingRules

@Suite("Money is exact")
struct MoneyTests {
    @Test func decimalTextIsReadExactlyNotThroughAFloat() throws {
        let tenth = try ExactDecimal(parsing: "0.1")
        #expect(tenth.significand == 1 && tenth.scale == 1)
        let sum = try Money(parsing: "0.1", currency: .usd) + Money(parsing: "0.2", currency: .usd)
        #expect(sum.decimalString == "0.30")
    }

    @Test func usdRefusesAThirdDecimal() {
        #expect(throws: Money.ConversionError.tooManyDecimals(currency: "USD", minorDigits: 2)) {
            try Money(ExactDecimal(parsing: "100.005"), currency: .usd)
        }
    }

    @Test func currenciesKeepTheirOwnMinorDigits() throws {
        #expect(try Money(parsing: "1000", currency: .jpy).decimalString == "1000")
        #expect(try Money(parsing: "1.234", currency: .kwd).decimalString == "1.234")
        #expect(try Money(parsing: "5", currency: .usd).decimalString == "5.00")
        #expect(throws: Money.ConversionError.self) { try Money(parsing: "1000.5", currency: .jpy) }
    }

    @Test(arguments: [
        (RoundingMode.halfUp, Int128(25), Int128(3)), (.halfUp, -25, -3), (.halfUp, 24, 2),
        (.halfEven, 25, 2), (.halfEven, 35, 4), (.halfEven, -25, -2), (.halfEven, -35, -4),
        (.halfDown, 25, 2), (.halfDown, -25, -2), (.halfDown, 26, 3), (.halfDown, -26, -3),
    ])
    func halvesRoundByMode(mode: RoundingMode, tenths: Int128, expected: Int128) {
        #expect(mode.divide(tenths, by: 10) == expected)
    }

    @Test func percentageRoundsWithTheGivenMode() throws {
        let base = Fixture.usd("45.00")
        #expect(base.percentage(try ExactDecimal(parsing: "1.5"), rounding: .halfEven).decimalString == "0.68")
        #expect(Fixture.usd("0.50").percentage(ExactDecimal(5), rounding: .halfEven).decimalString == "0.02")
        #expect(Fixture.usd("0.50").percentage(ExactDecimal(5), rounding: .halfUp).decimalString == "0.03")
    }
}
