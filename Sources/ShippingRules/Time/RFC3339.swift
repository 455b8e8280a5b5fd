import Foundation

/// RFC 3339 timestamps without `DateFormatter` (slow, and locale- and calendar-prone).
///
/// Reading accepts exactly `YYYY-MM-DDTHH:MM:SS[.fraction]` followed by `Z` or `±hh:mm`, with
/// 1–9 fraction digits; upper-case `T` and `Z` only, and no leap second (`:60`), which `Date`
/// cannot hold and no gateway clock emits. Writing always gives UTC with milliseconds and `Z`.
public enum RFC3339 {
    /// Seconds from 1970-01-01 to 2001-01-01, `Date`'s own epoch.
    private static let referenceEpochOffset: Int64 = 978_307_200

    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// The instant as whole seconds since 1970 and nanoseconds, read without any float.
    public static func parseExact(_ text: String) -> (epochSeconds: Int64, nanoseconds: Int32)? {
        var text = text
        return text.withUTF8 { parseParts($0) }
    }

    /// `parse` on bytes in place (the event scanner's slices).
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard let (seconds, nanos) = parseParts(bytes) else { return nil }
        // One rounding only: whole seconds are exact in a Double, the fraction is added once.
        return Date(timeIntervalSinceReferenceDate: Double(seconds - referenceEpochOffset) + Double(nanos) / 1e9)
    }

    /// By the number of fraction digits read (1…9): what makes them nanoseconds.
    private static let fractionScale = [1_000_000_000, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1]

    private static func parseParts(_ b: UnsafeBufferPointer<UInt8>) -> (epochSeconds: Int64, nanoseconds: Int32)? {
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var value = 0
            for k in at..<(at + count) {
                let byte = b[k]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        // A scalar, not a Character: `Character.asciiValue` costs more than the whole comparison.
        func byte(_ at: Int, is expected: Unicode.Scalar) -> Bool { at < b.count && b[at] == UInt8(ascii: expected) }

        // The fixed part, `YYYY-MM-DDTHH:MM:SS` (every event has a timestamp or two), checked and
        // read a word at a time: bytes 0-7, 8-15 and 11-18, each against which of its bytes must be
        // digits and which separators.
        guard b.count >= 20 else { return nil }
        let base = UnsafeRawPointer(b.baseAddress.unsafelyUnwrapped)
        let w0 = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))                      // YYYY-MM-
        let w1 = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt64.self))   // DDTHH:MM
        let w2 = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 11, as: UInt64.self))  // HH:MM:SS
        let zeros: UInt64 = 0x3030_3030_3030_3030
        let x0 = w0 ^ zeros, x1 = w1 ^ zeros, x2 = w2 ^ zeros
        // A byte is a digit when, less "0", its high half is clear and adding 6 does not reach 16.
        // (A carry out of a byte only happens where the byte is already refused.)
        func nonDigits(_ x: UInt64, _ digits: UInt64) -> UInt64 {
            ((x & 0xF0F0_F0F0_F0F0_F0F0) | ((x &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010)) & digits
        }
        guard w0 & 0xFF00_00FF_0000_0000 == 0x2D00_002D_0000_0000,   // "-" at 4 and 7
              w1 & 0x0000_FF00_00FF_0000 == 0x0000_3A00_0054_0000,   // "T" at 10, ":" at 13
              w2 & 0x0000_FF00_0000_0000 == 0x0000_3A00_0000_0000,   // ":" at 16
              nonDigits(x0, 0x00FF_FF00_FFFF_FFFF) | nonDigits(x1, 0xFFFF_00FF_FF00_FFFF)
                | nonDigits(x2, 0xFFFF_0000_0000_0000) == 0 else { return nil }
        func digit(_ x: UInt64, _ k: UInt64) -> Int { Int(truncatingIfNeeded: (x &>> (8 &* k)) & 0x0F) }
        let year = digit(x0, 0) &* 1000 &+ digit(x0, 1) &* 100 &+ digit(x0, 2) &* 10 &+ digit(x0, 3)
        let month = digit(x0, 5) &* 10 &+ digit(x0, 6), day = digit(x1, 0) &* 10 &+ digit(x1, 1)
        let hour = digit(x1, 3) &* 10 &+ digit(x1, 4), minute = digit(x1, 6) &* 10 &+ digit(x1, 7)
        let second = digit(x2, 6) &* 10 &+ digit(x2, 7)
        guard let date = CalendarDate(year: year, month: month, day: day),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        let local = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        // Milliseconds and `Z`, as `format` writes them and most gateways do: one word's compare.
        if b.count == 24 {
            let tail = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 20, as: UInt32.self)) ^ 0x0030_3030   // mmmZ
            let flags = ((tail & 0x00F0_F0F0) | ((tail &+ 0x0006_0606) & 0x0010_1010)) & 0x00FF_FFFF
            if b[19] == UInt8(ascii: "."), tail & 0xFF00_0000 == 0x5A00_0000, flags == 0 {
                let millis = Int(tail & 0x0F) &* 100 &+ Int((tail &>> 8) & 0x0F) &* 10 &+ Int((tail &>> 16) & 0x0F)
                return (local, Int32(millis &* 1_000_000))
            }
        }
        var i = 19
        var nanos = 0
        if byte(i, is: ".") {
            i += 1
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                guard i - start < 9 else { return nil }
                nanos = nanos * 10 + Int(b[i] - 48)
                i += 1
            }
            guard i > start else { return nil }
            nanos *= fractionScale[i - start]   // "123" is 123,000,000 ns
        }
        var offsetSeconds = 0
        if byte(i, is: "Z") {
            i += 1
        } else if byte(i, is: "+") || byte(i, is: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            guard let offsetHours = digits(i + 1, 2), byte(i + 3, is: ":"), let offsetMinutes = digits(i + 4, 2),
                  offsetHours <= 23, offsetMinutes <= 59 else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        return (local - Int64(offsetSeconds), Int32(nanos))
    }

    /// `date` in UTC with milliseconds: `2026-10-10T12:00:00.123Z`. Finer parts are truncated,
    /// after snapping to the nearest microsecond so that a `Date` made from whole milliseconds
    /// (and carrying a float's error) formats as those milliseconds.
    public static func format(_ date: Date) -> String {
        let micros = Int64((date.timeIntervalSinceReferenceDate * 1_000_000).rounded())
        let millis = floorDivide(micros, 1000) + referenceEpochOffset * 1000
        return format(epochMilliseconds: millis)
    }

    /// The UTC timestamp of a whole number of milliseconds since 1970.
    public static func format(epochMilliseconds millis: Int64) -> String {
        String(unsafeUninitializedCapacity: timestampLength) { writeTimestamp(epochMilliseconds: millis, to: $0.baseAddress!) }
    }

    /// The length of every timestamp `format` writes.
    public static let timestampLength = 24

    /// What `format(epochMilliseconds:)` writes, as ASCII at `out` (`timestampLength` bytes, returned),
    /// so that a reply writes it in place.
    public static func writeTimestamp(epochMilliseconds millis: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let seconds = floorDivide(millis, 1000)
        let milli = Int(millis - seconds * 1000)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        var k = writeFullDate(CalendarDate(daysSinceEpoch: Int(days)), to: out)
        out[k] = UInt8(ascii: "T")
        k += 1 + writePadded(secondOfDay / 3600, width: 2, to: out + k + 1)
        out[k] = UInt8(ascii: ":")
        k += 1 + writePadded(secondOfDay / 60 % 60, width: 2, to: out + k + 1)
        out[k] = UInt8(ascii: ":")
        k += 1 + writePadded(secondOfDay % 60, width: 2, to: out + k + 1)
        out[k] = UInt8(ascii: ".")
        k += 1 + writePadded(milli, width: 3, to: out + k + 1)
        out[k] = UInt8(ascii: "Z")
        return k + 1
    }

    /// RFC 3339's `full-date`, `2026-10-13` (years 1–9999, as `CalendarDate` holds them), appended
    /// as ASCII without quotes.
    public static func appendFullDate(_ date: CalendarDate, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { buffer in
            let count = writeFullDate(date, to: buffer.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The same 10 bytes written at `out`; returns 10.
    public static func writeFullDate(_ date: CalendarDate, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let (year, month, day) = date.components
        writePadded(year, width: 4, to: out)
        out[4] = UInt8(ascii: "-")
        writePadded(month, width: 2, to: out + 5)
        out[7] = UInt8(ascii: "-")
        writePadded(day, width: 2, to: out + 8)
        return 10
    }

    /// ASCII digits with zero padding to `width` (the last `width` digits), written at `out`; returns `width`.
    @discardableResult
    @inline(__always)
    private static func writePadded(_ value: Int, width: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Every reply writes a timestamp and two dates per method: the widths used (2, 3, 4) are
        // written by constant divisions, which compile to multiplications, two digits at a time.
        // Unsigned: a signed division by a constant needs a sign fix-up after its multiplication,
        // and every value written here is a date's or a time's part, never below zero.
        let v = UInt32(truncatingIfNeeded: value)
        switch width {
        case 2:
            write2(v % 100, to: out)
        case 3:
            out[0] = UInt8(truncatingIfNeeded: 48 &+ v / 100 % 10)
            write2(v % 100, to: out + 1)
        case 4:
            write2(v / 100 % 100, to: out)
            write2(v % 100, to: out + 2)
        default:
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var v = value
            var k = 0
            while divisor > 0 {
                out[k] = UInt8(48 + (v / divisor) % 10)
                k += 1
                v %= divisor
                divisor /= 10
            }
        }
        return width
    }

    /// Two digits of `value` (0…99) at `out`.
    @inline(__always)
    private static func write2(_ value: UInt32, to out: UnsafeMutablePointer<UInt8>) {
        out[0] = UInt8(truncatingIfNeeded: 48 &+ value / 10)
        out[1] = UInt8(truncatingIfNeeded: 48 &+ value % 10)
    }

    /// Whole milliseconds since 1970 of `date`, the same rounding `format` uses.
    public static func epochMilliseconds(_ date: Date) -> Int64 {
        let micros = Int64((date.timeIntervalSinceReferenceDate * 1_000_000).rounded())
        return floorDivide(micros, 1000) + referenceEpochOffset * 1000
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
