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
        var text = text
        let result = text.withUTF8 { (bytes) -> Result<ExactDecimal, ParseError> in
            Result { () throws(ParseError) in try ExactDecimal(parsing: bytes) }
        }
        self = try result.get()
    }

    /// The same grammar over UTF-8 bytes, without allocating: the worker reads every amount of
    /// every event through here.
    public init(parsing bytes: UnsafeBufferPointer<UInt8>) throws(ParseError) {
        func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
        var i = 0
        var negative = false
        if i < bytes.count && bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        let intStart = i
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        let intEnd = i
        guard intEnd > intStart else { throw .notANumber }
        if intEnd - intStart > 1 && bytes[intStart] == 48 { throw .notANumber }
        var fracStart = i, fracEnd = i
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            fracStart = i
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            fracEnd = i
            guard fracEnd > fracStart else { throw .notANumber }
        }
        var exponent = 0
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            var expNegative = false
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
                expNegative = bytes[i] == UInt8(ascii: "-"); i += 1
            }
            let expStart = i
            while i < bytes.count, isDigit(bytes[i]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[i] - 48) }
                i += 1
            }
            guard i > expStart else { throw .notANumber }
            if expNegative { exponent = -exponent }
        }
        guard i == bytes.count else { throw .notANumber }

        // The digits read as one run, integer part then fraction; the k-th of them:
        let intCount = intEnd - intStart
        let total = intCount + (fracEnd - fracStart)
        func digit(_ k: Int) -> UInt8 { bytes[k < intCount ? intStart + k : fracStart + k - intCount] - 48 }
        // Leading zeros carry no value.
        var first = 0
        while first < total && digit(first) == 0 { first += 1 }
        guard first < total else { self.init(significand: 0, scale: 0); return }
        var count = total - first
        var scale = (fracEnd - fracStart) - exponent
        // A positive exponent beyond the fraction appends zeros to the significand.
        var appendedZeros = 0
        if scale < 0 {
            guard count - scale <= ExactDecimal.maxDigits else { throw .tooManyDigits }
            appendedZeros = -scale
            scale = 0
        }
        // Trailing zeros of the fraction do not count against the digit limit.
        while scale > 0 && count > 1 && digit(first + count - 1) == 0 { count -= 1; scale -= 1 }
        guard count + appendedZeros <= ExactDecimal.maxDigits, scale <= ExactDecimal.maxDigits else { throw .tooManyDigits }
        var value: Int128 = 0
        for k in first..<(first + count) { value = value * 10 + Int128(digit(k)) }
        for _ in 0..<appendedZeros { value *= 10 }
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
