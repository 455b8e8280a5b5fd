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
        // Beyond Int64 (the one-pass reading stops counting at 15 integer digits), and more decimals than any currency has.
        "12345678901234567890", "-99999999999999999999.99", String(repeating: "9", count: 70), "1.23456", "0.00001",
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
        #expect(minor("12345678901234567890", 0) == nil)
        #expect(minor("1.2345", 4) == 12_345)
        #expect(minor("1.2345", 3) == nil)
    }

    @Test func aPlainLiteralIsReadOnceForEveryCurrency() throws {
        func decimal(_ literal: String) -> PlainDecimal? {
            var text = literal
            return text.withUTF8 { PlainDecimal($0) }
        }
        let price = try #require(decimal("-12.5"))
        #expect(price.digits == -125 && price.decimals == 1)
        #expect(price.minorUnits(minorDigits: 0) == nil)
        #expect(price.minorUnits(minorDigits: 1) == -125)
        #expect(price.minorUnits(minorDigits: 2) == -1_250)
        #expect(price.minorUnits(minorDigits: 4) == -125_000)
        #expect(price.minorUnits(minorDigits: 5) == nil)   // no currency has five: the parser's
        #expect(decimal("99999999999999.9999")?.minorUnits(minorDigits: 4) == nil)   // over the largest amount
        #expect(decimal("-0.00") == nil)
        #expect(decimal("999999999999999") == nil)
        #expect(decimal("0.12345") == nil)
    }

    /// The scanner values an amount's string as it steps over it: the decimal at the start of the
    /// bytes, and where it ends, read exactly as a whole literal is.
    @Test func aPlainDecimalAtTheStartOfBytesIsReadUpToItsEnd() {
        func read(_ text: String) -> (digits: Int64, decimals: Int8, end: Int)? {
            Array(text.utf8).withUnsafeBufferPointer { bytes in
                PlainDecimal.read(bytes, from: 1).map { ($0.0.digits, $0.0.decimals, $0.end) }
            }
        }
        #expect(read("\"25.00\"}").map { [$0.digits, Int64($0.decimals), Int64($0.end)] } == [2_500, 2, 6])
        #expect(read("\"-5\"").map { [$0.digits, Int64($0.decimals), Int64($0.end)] } == [-5, 0, 3])
        #expect(read("\"0.12345\"").map { [$0.digits, Int64($0.decimals), Int64($0.end)] } == [1_234, 4, 7])   // a fifth decimal is not its own
        #expect(read("\"1e5\"").map { [$0.digits, Int64($0.decimals), Int64($0.end)] } == [1, 0, 2])
        for refused in ["\"-0\"", "\"-0.00\"", "\"01\"", "\"1.\"", "\".5\"", "\"\"", "\"-\"", "\"999999999999999\""] {
            #expect(read(refused) == nil, "\(refused)")
        }
        // Every whole literal reads as the prefix reader reads it, ending at its last byte.
        for literal in ["0", "7", "-12.5", "25.00", "10000000000000", "1.2345", "0.12345", "-0", "01", "1e5", "2 5", "+1"] {
            let whole = Array(literal.utf8).withUnsafeBufferPointer { PlainDecimal($0) }
            let prefix = Array(literal.utf8).withUnsafeBufferPointer { bytes in
                PlainDecimal.read(bytes, from: 0).flatMap { $0.end == bytes.count ? $0.0 : nil }
            }
            #expect(whole == prefix, "\(literal)")
        }
    }

    @Test func anAmountFarBeyondInt64IsRefusedByNameNotATrap() {
        // The HTTP gateway's shown_total is read this way: a hostile 30-digit total is a 400, not a crash.
        let total = JSONObject(["shown_total": .object(JSONObject(["currency": .string("USD"),
                                                                   "value": .number(String(repeating: "9", count: 30))]))])
        guard case .failure(let rejection) = ContractAmount.read(total, "shown_total", currency: .usd) else {
            Issue.record("a 30-digit amount was read")
            return
        }
        #expect(rejection.code == .overLimit)
        #expect(rejection.field == "shown_total.value")
    }
}
