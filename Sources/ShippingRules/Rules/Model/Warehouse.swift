import Foundation

/// Where orders leave from, and when: the calendar delivery estimates are counted on.
struct Warehouse: Sendable {
    var timeZone: TimeZone
    /// Minutes after local midnight; an order at or after it ships the next business day.
    var cutoffMinutes: Int?
    /// 0 = Sunday … 6 = Saturday.
    var businessDays: Set<Int>
    var holidays: Set<CalendarDate>
    /// Business days between taking the order and handing it to the carrier.
    var handlingDays: Int
}
