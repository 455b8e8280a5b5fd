import Foundation

/// Where orders leave from, and when: the calendar delivery estimates are counted on.
struct Warehouse: Sendable {
    var timeZone: TimeZone { didSet { offsets = ZoneOffsets(timeZone) } }
    /// Minutes after local midnight; an order at or after it ships the next business day.
    var cutoffMinutes: Int?
    /// 0 = Sunday … 6 = Saturday.
    var businessDays: Set<Int> { didSet { businessDayMask = Self.mask(businessDays) } }
    var holidays: Set<CalendarDate> { didSet { holidayNumbers = Set(holidays.map(\.daysSinceEpoch)) } }
    /// Business days between taking the order and handing it to the carrier.
    var handlingDays: Int

    /// The same calendar as numbers, so counting days on the quoting path hashes no dates:
    /// bit `w` set for business weekday `w`, holidays as days since 1970-01-01.
    private(set) var businessDayMask: UInt8
    private(set) var holidayNumbers: Set<Int>
    /// The zone's offsets as a table, so a quote never asks ICU (see `ZoneOffsets`).
    private(set) var offsets: ZoneOffsets

    init(timeZone: TimeZone, cutoffMinutes: Int?, businessDays: Set<Int>, holidays: Set<CalendarDate>, handlingDays: Int) {
        self.timeZone = timeZone
        self.cutoffMinutes = cutoffMinutes
        self.businessDays = businessDays
        self.holidays = holidays
        self.handlingDays = handlingDays
        self.businessDayMask = Self.mask(businessDays)
        self.holidayNumbers = Set(holidays.map(\.daysSinceEpoch))
        self.offsets = ZoneOffsets(timeZone)
    }

    private static func mask(_ days: Set<Int>) -> UInt8 { days.reduce(0) { $0 | (1 << UInt8($1 & 7)) } }
}
