import Foundation

/// Where orders leave from, and when: the calendar delivery estimates are counted on.
struct Warehouse: Sendable {
    var timeZone: TimeZone { didSet { offsets = ZoneOffsets(timeZone) } }
    /// Minutes after local midnight; an order at or after it ships the next business day.
    var cutoffMinutes: Int?
    /// 0 = Sunday … 6 = Saturday.
    var businessDays: Set<Int> { didSet { businessDayMask = Self.mask(businessDays) } }
    var holidays: Set<CalendarDate> { didSet { holidayNumbers = Self.numbers(holidays) } }
    /// Business days between taking the order and handing it to the carrier.
    var handlingDays: Int

    /// The same calendar as numbers, so counting days on the quoting path hashes no dates:
    /// bit `w` set for business weekday `w`, holidays as days since 1970-01-01.
    private(set) var businessDayMask: UInt8
    /// Ascending, for a binary search: counting days hashes nothing.
    private(set) var holidayNumbers: [Int]
    /// The zone's offsets as a table, so a quote never asks ICU (see `ZoneOffsets`).
    private(set) var offsets: ZoneOffsets

    init(timeZone: TimeZone, cutoffMinutes: Int?, businessDays: Set<Int>, holidays: Set<CalendarDate>, handlingDays: Int) {
        self.timeZone = timeZone
        self.cutoffMinutes = cutoffMinutes
        self.businessDays = businessDays
        self.holidays = holidays
        self.handlingDays = handlingDays
        self.businessDayMask = Self.mask(businessDays)
        self.holidayNumbers = Self.numbers(holidays)
        self.offsets = ZoneOffsets(timeZone)
    }

    private static func mask(_ days: Set<Int>) -> UInt8 { days.reduce(0) { $0 | (1 << UInt8($1 & 7)) } }
    private static func numbers(_ holidays: Set<CalendarDate>) -> [Int] { holidays.map(\.daysSinceEpoch).sorted() }

    /// Whether the day (days since 1970-01-01) is a holiday.
    func isHoliday(_ day: Int) -> Bool {
        var low = 0, high = holidayNumbers.count
        while low < high {
            let mid = (low + high) >> 1
            if holidayNumbers[mid] < day { low = mid + 1 } else { high = mid }
        }
        return low < holidayNumbers.count && holidayNumbers[low] == day
    }
}
