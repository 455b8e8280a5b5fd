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

        // The fixed part (every event has two timestamps): its separators checked at once, its
        // fourteen digits read without a branch each, any non-digit noted and refused after.
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":") else { return nil }
        var notDigit = false
        func digit(_ at: Int) -> Int {
            let value = b[at] &- 48
            notDigit = notDigit || value > 9
            return Int(value)
        }
        let year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
        let month = digit(5) * 10 + digit(6), day = digit(8) * 10 + digit(9)
        let hour = digit(11) * 10 + digit(12), minute = digit(14) * 10 + digit(15), second = digit(17) * 10 + digit(18)
        guard !notDigit, let date = CalendarDate(year: year, month: month, day: day),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
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
        let local = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
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
