/// A day on a calendar, without a time or a zone: what a delivery estimate is made of.
///
/// Kept as a day number: a quote steps, compares and checks holidays on days many times and writes
/// a date out at most twice a method, so the year, month and day are worked out only then.
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (proleptic Gregorian); lets dates step and compare without a calendar object.
    public let daysSinceEpoch: Int

    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...CalendarDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.daysSinceEpoch = CalendarDate.days(year: year, month: month, day: day)
    }

    public init(daysSinceEpoch: Int) { self.daysSinceEpoch = daysSinceEpoch }

    /// Reads `YYYY-MM-DD` strictly.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public var year: Int { components.year }
    public var month: Int { components.month }
    public var day: Int { components.day }

    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let (year, month, day) = components
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    static func isLeap(_ year: Int) -> Bool {
        guard year >= 0 else { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }
        let y = UInt(bitPattern: year)   // unsigned: remainders without a sign's fix-ups
        return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The day number of a date of years 1-9999 (all that `init?(year:month:day:)` lets through),
    /// in unsigned 32-bit arithmetic: its divisions by constants are a multiply and a shift, without
    /// the fix-ups a sign needs (every event's timestamp comes this way).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let m = UInt32(truncatingIfNeeded: month)
        let y = UInt32(truncatingIfNeeded: year) &- (m <= 2 ? 1 : 0)   // March-based years: the leap day comes last
        let era = y / 400, yoe = y &- era &* 400
        let mp = m > 2 ? m &- 3 : m &+ 9
        let doy = (153 &* mp &+ 2) / 5 &+ UInt32(truncatingIfNeeded: day) &- 1
        let doe = yoe &* 365 &+ yoe / 4 &- yoe / 100 &+ doy
        return Int(era &* 146_097 &+ doe) &- 719_468
    }

    /// Year, month and day of the day number, worked out at once.
    public var components: (year: Int, month: Int, day: Int) {
        guard (CalendarDate.firstOfYear1...CalendarDate.lastOfYear9999).contains(daysSinceEpoch) else { return anyComponents }
        // Years 1…9999 (every date the contract carries; a reply writes two a method): Neri and
        // Schneider's Euclidean affine functions ("Euclidean affine functions and their application
        // to calendar algorithms", 2022) in unsigned 32-bit arithmetic, whose divisions by
        // constants are multiplications. The day is shifted by 82 eras of 146,097 days so that every
        // day from year 1 on is above zero (and four times it below 2^32).
        let n = UInt32(truncatingIfNeeded: daysSinceEpoch &+ 719_468 &+ 82 &* 146_097)
        let n1 = 4 &* n &+ 3
        let century = n1 / 146_097
        let n2 = n1 % 146_097 / 4 &* 4 &+ 3
        let p2 = UInt64(2_939_745) &* UInt64(n2)
        let yearOfCentury = UInt32(truncatingIfNeeded: p2 >> 32)
        let dayOfYear = UInt32(truncatingIfNeeded: p2) / 2_939_745 / 4   // from March 1st
        let n3 = 2_141 &* dayOfYear &+ 197_913
        let month = n3 >> 16, day = (n3 & 0xFFFF) / 2_141 &+ 1           // month 3…14
        let january = dayOfYear >= 306
        return (Int(100 &* century &+ yearOfCentury) - 82 * 400 + (january ? 1 : 0),
                Int(january ? month &- 12 : month), Int(day))
    }

    /// 0001-01-01 and 9999-12-31 as day numbers.
    static let firstOfYear1 = -719_162, lastOfYear9999 = 2_932_896

    /// `components` for any day number, in years before 1 and after 9999 too (Howard Hinnant's
    /// `civil_from_days`); the same answers within 1…9999, which the tests check day by day.
    var anyComponents: (year: Int, month: Int, day: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    public func adding(days: Int) -> CalendarDate { CalendarDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int { ((daysSinceEpoch % 7) + 7 + 4) % 7 }
}
