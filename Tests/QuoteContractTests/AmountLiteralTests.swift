import Foundation
import Testing
import ShippingRules
@testable import QuoteContract

/// An amount's literal read in one pass gives exactly what the exact decimal parser gives, and
/// leaves every other literal to it.
@Suite("Amount literals read in one pass")
struct AmountLiteralTests {
    private static let literals = [
        "0", "5", "25", "25.0", "25.00", "25.000", "25.001", "0.5", "0.05", "0.005", "-5.00", "-0", "-0.00", "-0.01",
        "007", "00.5", "0.", ".5", "5.", "+5", "1e2", "1E2", "1.5e1", "12345678901234", "123456789012345",
        "99999999999.99", "9999999999999.99", "10000000000000.00", "1000000000000000", "1000000000000001", "-1000000000000000",
        "", "-", "1.2.3", "1,5", " 5", "5 ", "٣", "12.34", "1.2345", "0.0001", "999.9999",
    ]
    private static let currencies: [Currency] = [.usd, .jpy, .kwd, Currency(code: "CLF")!]

    private func parsed(_ literal: String, _ currency: Currency) -> Money? {
        var text = literal
        return text.withUTF8 { try? AmountField.parsedMoney(utf8: $0, currency: currency, form: .numberOrDecimalString) }
    }

    @Test func theOnePassReadingAgreesWithTheExactParserWheneverItAnswers() {
        var answered = 0
        for currency in Self.currencies {
            for literal in Self.literals {
                var text = literal
                let fast = text.withUTF8 { AmountField.plainMinorUnits($0, digits: currency.minorDigits) }
                if let fast {
                    answered += 1
                    #expect(parsed(literal, currency)?.minorUnits == fast, "\(literal) in \(currency)")
                }
                // Whatever the path, reading a literal gives the parser's answer.
                let read = text.withUTF8 { try? AmountField.money(utf8: $0, currency: currency, form: .numberOrDecimalString) }
                #expect(read == parsed(literal, currency), "\(literal) in \(currency)")
            }
        }
        #expect(answered == 48)
    }

    @Test func exactMinorUnitsForTheCommonForms() {
        func minor(_ literal: String, _ digits: Int) -> Int64? {
            var text = literal
            return text.withUTF8 { AmountField.plainMinorUnits($0, digits: digits) }
        }
        #expect(minor("25", 2) == 2_500)
        #expect(minor("25.5", 2) == 2_550)
        #expect(minor("-5.00", 2) == -500)
        #expect(minor("1.234", 3) == 1_234)
        #expect(minor("1000", 0) == 1_000)
        #expect(minor("25.000", 2) == nil)       // the parser decides (trailing zeros)
        #expect(minor("1000000000000001", 2) == nil)
        #expect(minor("-0", 2) == nil)
        #expect(minor("10000000000000", 2) == 1_000_000_000_000_000)   // the largest amount
        #expect(minor("10000000000001", 2) == nil)   // over it: the parser names it
    }
}
