/// An exact amount in one currency, held as a whole number of the currency's minor units
/// (cents for USD, yen for JPY, fils for KWD).
public struct Money: Hashable, Sendable, CustomStringConvertible {
    public let currency: Currency
    public let minorUnits: Int64

    /// Amounts beyond ± 10^15 minor units are refused: no checkout needs them and the bound keeps
    /// sums of 100 lines × quantities far from overflow.
    public static let maxMinorUnits: Int64 = 1_000_000_000_000_000

    public init(minorUnits: Int64, currency: Currency) {
        self.currency = currency
        self.minorUnits = minorUnits
    }

    public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

    public enum ConversionError: Error, Equatable, Sendable {
        /// The value has more decimals than the currency has minor digits (USD 100.005).
        case tooManyDecimals(currency: String, minorDigits: Int)
        case outOfRange
    }

    /// An exact decimal as money; refuses rather than rounds a value finer than a minor unit.
    public init(_ value: ExactDecimal, currency: Currency) throws(ConversionError) {
        guard value.scale <= currency.minorDigits else {
            throw .tooManyDecimals(currency: currency.code, minorDigits: currency.minorDigits)
        }
        let minor = value.significand * Power10.int128(currency.minorDigits - value.scale)
        guard minor.magnitude <= UInt128(Money.maxMinorUnits) else { throw .outOfRange }
        self.init(minorUnits: Int64(minor), currency: currency)
    }

    /// Parses a decimal text such as `"25.00"` for `currency`.
    public init(parsing text: String, currency: Currency) throws {
        try self.init(ExactDecimal(parsing: text), currency: currency)
    }

    public var exactValue: ExactDecimal { ExactDecimal(significand: Int128(minorUnits), scale: currency.minorDigits) }

    /// The amount with exactly the currency's minor digits: `5.00`, `-5.00`, `1000`, `1.234`.
    public var decimalString: String {
        let digits = currency.minorDigits
        let magnitude = minorUnits.magnitude
        var text = String(magnitude)
        if digits > 0 {
            if text.count <= digits { text = String(repeating: "0", count: digits - text.count + 1) + text }
            text.insert(".", at: text.index(text.endIndex, offsetBy: -digits))
        }
        return (minorUnits < 0 ? "-" : "") + text
    }

    public var description: String { "\(currency.code) \(decimalString)" }
    public var isNegative: Bool { minorUnits < 0 }
    public var isZero: Bool { minorUnits == 0 }

    public static func + (lhs: Money, rhs: Money) -> Money {
        precondition(lhs.currency == rhs.currency, "money of two currencies never adds")
        return Money(minorUnits: lhs.minorUnits + rhs.minorUnits, currency: lhs.currency)
    }

    public static func - (lhs: Money, rhs: Money) -> Money {
        precondition(lhs.currency == rhs.currency, "money of two currencies never subtracts")
        return Money(minorUnits: lhs.minorUnits - rhs.minorUnits, currency: lhs.currency)
    }

    public static prefix func - (value: Money) -> Money {
        Money(minorUnits: -value.minorUnits, currency: value.currency)
    }

    public static func * (lhs: Money, rhs: Int) -> Money {
        Money(minorUnits: lhs.minorUnits * Int64(rhs), currency: lhs.currency)
    }

    /// This amount times a percentage (`7.25` for 7.25 %), rounded to minor units with `mode`.
    public func percentage(_ percent: ExactDecimal, rounding mode: RoundingMode) -> Money {
        let numerator = Int128(minorUnits) * percent.significand
        let denominator = 100 * Power10.int128(percent.scale)
        return Money(minorUnits: Int64(mode.divide(numerator, by: denominator)), currency: currency)
    }
}

extension Money: Comparable {
    public static func < (lhs: Money, rhs: Money) -> Bool {
        precondition(lhs.currency == rhs.currency, "money of two currencies never compares")
        return lhs.minorUnits < rhs.minorUnits
    }
}

extension Sequence where Element == Money {
    /// The sum of these amounts, all in `currency`.
    public func sum(in currency: Currency) -> Money { reduce(Money.zero(currency), +) }
}
