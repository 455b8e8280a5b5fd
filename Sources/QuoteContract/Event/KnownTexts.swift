/// Texts that nearly every event carries and that are one of a few known values: a country's or
/// a state's code (two capital letters) and the wallets' names. Each is made once, so that
/// reading one is a look-up, not a string made (about 135 instructions each, the read's largest
/// cost after the scan itself).
enum KnownTexts {
    /// The text of `bytes` where it is one of the known ones; nil for any other.
    @inline(__always)
    static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch bytes.count {
        case 2:
            let first = bytes[0] &- UInt8(ascii: "A"), second = bytes[1] &- UInt8(ascii: "A")
            guard first < 26, second < 26 else { return nil }
            return capitalPairs[Int(first) &* 26 &+ Int(second)]
        case 9: return word(bytes) == applePa && bytes[8] == UInt8(ascii: "Y") ? "APPLE_PAY" : nil
        case 10: return word(bytes) == googleP && bytes[8] == UInt8(ascii: "A") && bytes[9] == UInt8(ascii: "Y") ? "GOOGLE_PAY" : nil
        default: return nil
        }
    }

    /// The first eight bytes as a little-endian word (`bytes` holds at least eight).
    @inline(__always)
    private static func word(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped).loadUnaligned(as: UInt64.self))
    }

    /// `APPLE_PA` and `GOOGLE_P` as little-endian words: literals, so that no lazy static is asked
    /// for them on every event (a test spells them out).
    static let applePa: UInt64 = 0x4150_5F45_4C50_5041, googleP: UInt64 = 0x505F_454C_474F_4F47

    /// `AA` to `ZZ`, in order.
    static let capitalPairs: [String] = (0..<26 * 26).map { n in
        String(decoding: [UInt8(ascii: "A") + UInt8(n / 26), UInt8(ascii: "A") + UInt8(n % 26)], as: UTF8.self)
    }
}
