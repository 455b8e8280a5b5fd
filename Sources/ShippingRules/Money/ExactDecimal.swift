/// A decimal number read from text without ever passing through a binary float:
/// `significand × 10^-scale`, with trailing fractional zeros removed (`25.00` is 25, scale 0).
public struct ExactDecimal: Hashable, Sendable, CustomStringConvertible {
    public let significand: Int128
    /// Digits after the decimal point; never negative.
    public let scale: Int

    /// Numbers beyond this many significant digits are refused: no amount or rate needs them,
    /// and the bound keeps every later product inside Int128.
    public static let maxDigits = 30

    public init(significand: Int128, scale: Int) {
        var s = significand, k = scale
        while k > 0 && s % 10 == 0 { s /= 10; k -= 1 }
        self.significand = s
        self.scale = k
    }

    public init(_ integer: Int) { self.init(significand: Int128(integer), scale: 0) }

    public enum ParseError: Error, Equatable, Sendable {
        case notANumber
        case tooManyDigits
    }

    /// Parses the JSON number grammar (`-12.5`, `1e3`, `2.50E-1`) exactly. A leading `+` and
    /// leading zeros are refused as JSON refuses them; `-0` reads as zero.
    public init(parsing text: Substring) throws(ParseError) {
        let bytes = Array(text.utf8)
        var i = 0
        var negative = false
        if i < bytes.count && bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        var digits: [UInt8] = []
        var fractionDigits = 0
        let intStart = i
        while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { digits.append(bytes[i] - 48); i += 1 }
        let intCount = i - intStart
        guard intCount > 0 else { throw .notANumber }
        if intCount > 1 && bytes[intStart] == 48 { throw .notANumber }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            let fracStart = i
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { digits.append(bytes[i] - 48); i += 1 }
            fractionDigits = i - fracStart
            guard fractionDigits > 0 else { throw .notANumber }
        }
        var exponent = 0
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            var expNegative = false
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
                expNegative = bytes[i] == UInt8(ascii: "-"); i += 1
            }
            let expStart = i
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[i] - 48) }
                i += 1
            }
            guard i > expStart else { throw .notANumber }
            if expNegative { exponent = -exponent }
        }
        guard i == bytes.count else { throw .notANumber }
        // Leading zeros carry no value (dropped in one step: a long run must not cost quadratic time).
        if let firstNonZero = digits.firstIndex(where: { $0 != 0 }) {
            digits.removeFirst(firstNonZero)
        } else {
            digits = [0]
        }
        var scale = fractionDigits - exponent
        if digits.allSatisfy({ $0 == 0 }) { self.init(significand: 0, scale: 0); return }
        // A positive exponent beyond the fraction appends zeros to the significand.
        if scale < 0 {
            guard digits.count - scale <= ExactDecimal.maxDigits else { throw .tooManyDigits }
            digits.append(contentsOf: repeatElement(0, count: -scale))
            scale = 0
        }
        // Trailing zeros of the fraction do not count against the digit limit.
        while scale > 0 && digits.count > 1 && digits.last == 0 { digits.removeLast(); scale -= 1 }
        guard digits.count <= ExactDecimal.maxDigits, scale <= ExactDecimal.maxDigits else { throw .tooManyDigits }
        var value: Int128 = 0
        for d in digits { value = value * 10 + Int128(d) }
        self.init(significand: negative ? -value : value, scale: scale)
    }

    public init(parsing text: String) throws(ParseError) { try self.init(parsing: Substring(text)) }

    public var isNegative: Bool { significand < 0 }
    public var isZero: Bool { significand == 0 }

    public var description: String {
        let magnitude = significand.magnitude
        var digits = String(magnitude)
        if scale > 0 {
            if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
        }
        return (significand < 0 ? "-" : "") + digits
    }
}

extension ExactDecimal: Comparable {
    public static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
        let k = max(lhs.scale, rhs.scale)
        return lhs.significand * Power10.int128(k - lhs.scale) < rhs.significand * Power10.int128(k - rhs.scale)
    }
}

enum Power10 {
    static func int128(_ exponent: Int) -> Int128 {
        var p: Int128 = 1
        for _ in 0..<exponent { p *= 10 }
        return p
    }
}
