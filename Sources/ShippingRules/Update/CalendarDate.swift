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

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Year, month and day of the day number, worked out at once.
    public var components: (year: Int, month: Int, day: Int) {
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
