import Foundation
import Testing
@testable import ShippingRules

/// A currency is its ISO 4217 code and its minor digits, kept as packed letters so that an amount
/// copies without reference counting; what it says of itself is unchanged.
@Suite("Currencies")
struct CurrencyTests {
    @Test func aCodeReadsBackExactlyWithItsMinorDigits() throws {
        let cases = ["USD": 2, "JPY": 0, "KWD": 3, "CLF": 4, "EUR": 2, "ZWG": 2, "AED": 2]
        for (code, digits) in cases {
            let currency = try #require(Currency(code: code))
            #expect(currency.code == code)
            #expect(currency.description == code)
            #expect(currency.minorDigits == digits)
        }
    }

    @Test func theCodesBytesAreItsLettersInOrder() throws {
        let kwd = try #require(Currency(code: "KWD"))
        #expect(kwd.codeBytes == (UInt8(ascii: "K"), UInt8(ascii: "W"), UInt8(ascii: "D")))
    }

    @Test func twoReadingsOfOneCodeAreEqualAndHashAlike() throws {
        let a = try #require(Currency(code: "USD")), b = try #require(Currency(code: String("xUSD".dropFirst())))
        #expect(a == b && a == .usd)
        #expect(Set([a, b, .usd]).count == 1)
        #expect(a != .eur && Currency.gbp != .jpy)
    }

    @Test func anythingButAnActiveCodeIsRefused() {
        for text in ["usd", "US", "USDD", "", "XXX", "XAU", "U$D", "ÜSD", "US D"] { #expect(Currency(code: text) == nil, "\(text)") }
    }

    @Test func amountsInTheSameCurrencyAddAndCompare() throws {
        let a = try Money(parsing: "1.25", currency: .usd), b = try Money(parsing: "0.75", currency: try #require(Currency(code: "USD")))
        #expect((a + b).decimalString == "2.00")
        #expect((a + b).currency.code == "USD")
    }
}
