/// An ISO 4217 currency and the number of minor digits its amounts carry (USD 2, JPY 0, KWD 3).
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    /// The code's three letters packed into one integer, first letter lowest. Not a `String`:
    /// every `Money` carries its currency, and a string in it made each copy of an amount (of a
    /// summary item, of a method) a reference-count call, hundreds a quote.
    private let letters: UInt32
    public let minorDigits: Int

    /// The ISO 4217 code, e.g. `USD`.
    public var code: String {
        String(unsafeUninitializedCapacity: 3) { out in
            out[0] = UInt8(truncatingIfNeeded: letters)
            out[1] = UInt8(truncatingIfNeeded: letters >> 8)
            out[2] = UInt8(truncatingIfNeeded: letters >> 16)
            return 3
        }
    }

    /// The code's bytes, for writers that copy them without making a string.
    public var codeBytes: (UInt8, UInt8, UInt8) {
        (UInt8(truncatingIfNeeded: letters), UInt8(truncatingIfNeeded: letters >> 8), UInt8(truncatingIfNeeded: letters >> 16))
    }

    public init?(code: String) {
        var code = code
        guard let currency = code.withUTF8({ Currency(utf8: $0) }) else { return nil }
        self = currency
    }

    /// A code from its bytes in place (an event's `currency`), without making a string.
    public init?(utf8 code: UnsafeBufferPointer<UInt8>) {
        // Every code is three capital letters, so a table indexed by them answers without hashing
        // (and no other three bytes equal a code).
        guard code.count == 3 else { return nil }
        var index = 0
        var letters: UInt32 = 0, shift: UInt32 = 0
        for b in code {
            guard b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") else { return nil }
            index = index * 26 + Int(b - UInt8(ascii: "A"))
            letters |= UInt32(b) << shift
            shift += 8
        }
        let digits = Currency.minorDigitsByIndex[index]
        guard digits >= 0 else { return nil }
        self.letters = letters
        self.minorDigits = Int(digits)
    }

    private static let minorDigitsByIndex: [Int8] = {
        var table = [Int8](repeating: -1, count: 26 * 26 * 26)
        for (code, digits) in minorDigitsByCode {
            let index = code.utf8.reduce(0) { $0 * 26 + Int($1 - UInt8(ascii: "A")) }
            table[index] = Int8(digits)
        }
        return table
    }()

    public var description: String { code }

    public static let usd = Currency(code: "USD")!
    public static let eur = Currency(code: "EUR")!
    public static let gbp = Currency(code: "GBP")!
    public static let jpy = Currency(code: "JPY")!
    public static let kwd = Currency(code: "KWD")!

    // Active ISO 4217 codes (list one of the standard, 2024 amendment). Funds and precious-metal
    // codes are left out on purpose: nobody prices shipping in them.
    private static let minorDigitsByCode: [String: Int] = {
        var table: [String: Int] = [:]
        let zero = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
        let three = "BHD IQD JOD KWD LYD OMR TND"
        let four = "CLF UYW"
        let two = """
        AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD \
        CAD CDF CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD \
        GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL \
        MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK \
        PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB \
        TJS TMT TOP TRY TTD TWD TZS UAH USD UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG
        """
        for (codes, digits) in [(zero, 0), (two, 2), (three, 3), (four, 4)] {
            for code in codes.split(separator: " ") { table[String(code)] = digits }
        }
        return table
    }()
}
