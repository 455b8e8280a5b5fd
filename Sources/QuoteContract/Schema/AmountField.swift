import ShippingRules

/// Reading and writing `{ "currency": "USD", "value": … }`.
enum AmountField {
    /// How strictly `value` is read.
    enum Form {
        /// Events: a JSON number or a decimal string, exact, with no more decimals than the
        /// currency has. Trailing zeros are not decimals that matter: `25.000` USD is 25.00.
        case numberOrDecimalString
        /// Replies: a string with exactly the currency's minor digits (`"5.00"`, `"1000"`, `"1.234"`).
        case canonicalString
    }

    /// A value literal longer than this is refused before parsing: no amount needs it, and it keeps
    /// hostile megabyte-long numbers away from the decimal parser.
    static let maxLiteralLength = 64

    /// Reads the amount under `key`. With `currency`, the amount must be in it (`currency_mismatch`
    /// otherwise); without, any known currency is accepted.
    static func read(_ object: JSONObject, _ key: String, currency: Currency?, form: Form) throws(FieldFailure) -> Money {
        guard case .object(let amount) = try object.requiredValue(key) else {
            throw FieldFailure(.invalidField, key, "must be an object with currency and value")
        }
        return try within(key) { () throws(FieldFailure) -> Money in try read(amount, currency: currency, form: form) }
    }

    static func read(_ amount: JSONObject, currency expected: Currency?, form: Form) throws(FieldFailure) -> Money {
        let code = try amount.requiredString("currency")
        let currency: Currency
        if let expected {
            // Bytes, not String equality: Swift's `==` takes the Kelvin sign (U+212A) for a K.
            guard code.utf8.elementsEqual(expected.code.utf8) else {
                throw FieldFailure(.currencyMismatch, "currency", "must be the event currency \(expected.code)")
            }
            currency = expected
        } else {
            guard let known = Currency(code: code) else {
                throw FieldFailure(.invalidField, "currency", "must be a known ISO 4217 code")
            }
            currency = known
        }
        let literal: String
        switch (try amount.requiredValue("value"), form) {
        case (.number(let text), .numberOrDecimalString), (.string(let text), _):
            literal = text
        default:
            throw FieldFailure(.invalidField, "value",
                               form == .canonicalString ? "must be a decimal string" : "must be a number or a decimal string")
        }
        return try money(literal, currency: currency, form: form)
    }

    /// The `value` literal (a number's text or a string's content) as money in `currency`.
    static func money(_ literal: String, currency: Currency, form: Form) throws(FieldFailure) -> Money {
        var literal = literal
        let result = literal.withUTF8 { bytes in
            Result { () throws(FieldFailure) in try money(utf8: bytes, currency: currency, form: form) }
        }
        return try result.get()
    }

    static func money(utf8 literal: UnsafeBufferPointer<UInt8>, currency: Currency, form: Form) throws(FieldFailure) -> Money {
        if form == .numberOrDecimalString, let minor = plainMinorUnits(literal, digits: currency.minorDigits) {
            return Money(minorUnits: minor, currency: currency)
        }
        return try parsedMoney(utf8: literal, currency: currency, form: form)
    }

    /// The minor units of a literal in the form nearly every amount takes (`PlainDecimal`'s), read
    /// in one pass; nil for anything else, which `parsedMoney` then reads or refuses. It only
    /// ever gives what `parsedMoney` gives: the tests compare the two over many literals.
    static func plainMinorUnits(_ literal: UnsafeBufferPointer<UInt8>, digits: Int) -> Int64? {
        PlainDecimal(literal)?.minorUnits(minorDigits: digits)
    }

    /// Any literal, through the exact decimal parser: the authority, and what names what is wrong.
    static func parsedMoney(utf8 literal: UnsafeBufferPointer<UInt8>, currency: Currency, form: Form) throws(FieldFailure) -> Money {
        let digits = currency.minorDigits
        func expectation() -> String {
            form == .canonicalString
                ? "must be a decimal string with exactly \(digits) decimals for \(currency.code)"
                : "must be an exact decimal with at most \(digits) decimals for \(currency.code)"
        }
        guard literal.count <= maxLiteralLength, let decimal = try? ExactDecimal(parsing: literal) else {
            throw FieldFailure(.invalidField, "value", expectation())
        }
        if form == .canonicalString {
            guard let money = try? Money(decimal, currency: currency), money.decimalString.utf8.elementsEqual(literal) else {
                throw FieldFailure(.invalidField, "value", expectation())
            }
            return money
        }
        do {
            return try Money(decimal, currency: currency)
        } catch .outOfRange {
            throw FieldFailure(.overLimit, "value", "must stay within ±\(Money.maxMinorUnits) minor units")
        } catch {
            throw FieldFailure(.invalidField, "value", expectation())
        }
    }
}

/// A literal in the form nearly every amount takes (`-`, 1 to 14 integer digits without a leading
/// zero, and after a point 1 to 4 decimals), as its digits and how many of them are decimals:
/// what it means in any currency. Its digits are summed with wrapping arithmetic, then a sum of
/// more than 14 is refused: summed with checked arithmetic, a 20-digit amount trapped and took
/// the worker (or the HTTP gateway) down.
struct PlainDecimal: Sendable, Equatable {
    /// The digits as one integer, signed (`-12.50` is -1250); never zero with a minus sign.
    let digits: Int64
    /// How many of them follow the point: 0…4.
    let decimals: Int8

    init?(_ literal: UnsafeBufferPointer<UInt8>) {
        guard let (decimal, end) = PlainDecimal.read(literal, from: 0), end == literal.count else { return nil }
        self = decimal
    }

    private init(digits: Int64, decimals: Int8) { (self.digits, self.decimals) = (digits, decimals) }

    /// The decimal at the start of `bytes[from...]` and where it ends (the first byte after its
    /// digits), as `init` reads a whole literal: the event scanner values an amount's string as it
    /// steps over it. Nil where what is there is not of this form, up to that end.
    @inline(__always)
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> (PlainDecimal, end: Int)? {
        var k = from
        let negative = k < bytes.count && bytes[k] == UInt8(ascii: "-")
        if negative { k &+= 1 }
        let integerStart = k
        var value: Int64 = 0
        // Wrapping arithmetic: a sum past 14 digits may wrap, and is then refused below.
        while k < bytes.count, bytes[k] &- UInt8(ascii: "0") <= 9 {
            value = value &* 10 &+ Int64(bytes[k] &- UInt8(ascii: "0"))
            k &+= 1
        }
        let integerDigits = k &- integerStart
        guard integerDigits >= 1, integerDigits <= 14, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        var decimals: Int8 = 0
        if k < bytes.count, bytes[k] == UInt8(ascii: ".") {
            k &+= 1
            while k < bytes.count, bytes[k] &- UInt8(ascii: "0") <= 9, decimals < 4 {
                value = value &* 10 &+ Int64(bytes[k] &- UInt8(ascii: "0"))
                k &+= 1
                decimals &+= 1
            }
            guard decimals >= 1 else { return nil }
        }
        // `-0` and `-0.00` are the parser's to judge.
        guard !(negative && value == 0) else { return nil }
        return (PlainDecimal(digits: negative ? -value : value, decimals: decimals), k)
    }

    /// The amount in minor units of a currency with `minorDigits` decimals; nil where the parser
    /// decides: more decimals than the currency has (`25.000` USD is 25.00 to the parser), or
    /// beyond the largest amount (the parser names the limit).
    func minorUnits(minorDigits: Int) -> Int64? {
        guard Int(decimals) <= minorDigits, minorDigits <= 4 else { return nil }
        var value = digits.magnitude
        for _ in Int(decimals)..<minorDigits { value &*= 10 }   // below 10^(14 + 4): no wrap
        guard value <= UInt64(Money.maxMinorUnits) else { return nil }
        return digits < 0 ? -Int64(value) : Int64(value)
    }
}

/// An amount outside an event read by the event's rules: for the HTTP gateway's `shown_total`.
public enum ContractAmount {
    /// The amount under `key` of `object`, in `currency`, as an event's amount is read (a JSON
    /// number or a decimal string, exact, no finer than the currency); the refusal names the field.
    public static func read(_ object: JSONObject, _ key: String, currency: Currency) -> Result<Money, EventRejection> {
        do { return .success(try AmountField.read(object, key, currency: currency, form: .numberOrDecimalString)) } catch {
            return .failure(EventRejection(code: error.code, field: error.field, message: error.message))
        }
    }
}

extension JSONWriter {
    /// `{"currency":"USD","value":"53.94"}` with exactly the currency's minor digits.
    public mutating func amount(_ money: Money) {
        let digits = money.currency.minorDigits
        // A `Currency` is three capital letters with 0…4 digits: its bytes go out as they are.
        if (0...18).contains(digits) {
            amountObject(letters: money.currency.codeBytes, minorUnits: money.minorUnits, fractionDigits: digits)
        } else {
            amountObject(code: money.currency.code, minorUnits: money.minorUnits, fractionDigits: digits)
        }
    }
}
