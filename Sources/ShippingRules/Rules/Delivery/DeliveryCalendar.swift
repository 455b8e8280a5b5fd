import Foundation

/// Counts delivery dates on the warehouse's calendar: local date and time from the injected
/// clock, cutoff, business days, holidays, handling days, then transit business days.
/// Built once per rules load (a class: a quote passes one reference to every method, where the
/// warehouse's struct was copied, a retain of each member, for each). The business days of
/// 2020–2039 are numbered then (`BusinessDayTable`), so stepping N business days is two array
/// reads on the quoting path; days outside those years are stepped one by one.
final class DeliveryCalendar: Sendable {
    let warehouse: Warehouse
    private let table: BusinessDayTable

    init(warehouse: Warehouse) {
        self.warehouse = warehouse
        table = BusinessDayTable(from: BusinessDayTable.span.lowerBound, through: BusinessDayTable.span.upperBound) { [warehouse] day in
            DeliveryCalendar.isBusinessDay(number: day, warehouse)
        }
    }

    /// The warehouse's local date and minute of the day at `now` (DST included, via the zone's offset at that instant).
    func localMoment(_ now: Date) -> (date: CalendarDate, minuteOfDay: Int) {
        let offset = warehouse.offsets.secondsFromGMT(for: now)
        let seconds = Int(floor(now.timeIntervalSince1970)) + offset
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        return (CalendarDate(daysSinceEpoch: days), secondOfDay / 60)
    }

    func isBusinessDay(_ date: CalendarDate) -> Bool { isBusinessDay(number: date.daysSinceEpoch) }

    /// Day numbers (days since 1970-01-01, a Thursday) keep the stepping free of calendar math.
    private func isBusinessDay(number day: Int) -> Bool { Self.isBusinessDay(number: day, warehouse) }

    private static func isBusinessDay(number day: Int, _ warehouse: Warehouse) -> Bool {
        let weekday = ((day % 7) + 7 + 4) % 7
        return warehouse.businessDayMask & (1 << UInt8(weekday)) != 0 && !warehouse.isHoliday(day)
    }

    private func businessDay(onOrAfter day: Int) -> Int {
        if let found = table.businessDay(onOrAfter: day) { return found }
        var d = day
        var steps = 0
        // Bounded: a year of holidays is a configuration error, not a reason to loop forever.
        while !isBusinessDay(number: d) && steps < 366 {
            d += 1
            steps += 1
        }
        return d
    }

    /// The first business day on or after `date`.
    func businessDay(onOrAfter date: CalendarDate) -> CalendarDate {
        CalendarDate(daysSinceEpoch: businessDay(onOrAfter: date.daysSinceEpoch))
    }

    /// `count` business days after `date` (a business day itself); `closed` (ascending day numbers,
    /// a destination's holidays) are skipped too.
    func adding(businessDays count: Int, to date: CalendarDate, closed: [Int] = []) -> CalendarDate {
        var day = date.daysSinceEpoch
        if closed.isEmpty, let found = table.adding(businessDays: count, to: day) { return CalendarDate(daysSinceEpoch: found) }
        for _ in 0..<count {
            day = businessDay(onOrAfter: day + 1)
            var steps = 0
            // Bounded like `businessDay(onOrAfter:)`: a year of closed days is a configuration error.
            while !closed.isEmpty && Self.contains(closed, day) && steps < 366 {
                day = businessDay(onOrAfter: day + 1)
                steps += 1
            }
        }
        return CalendarDate(daysSinceEpoch: day)
    }

    private static func contains(_ sorted: [Int], _ day: Int) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) >> 1
            if sorted[mid] < day { low = mid + 1 } else { high = mid }
        }
        return low < sorted.count && sorted[low] == day
    }

    /// Whether the warehouse is closed that day for a holiday.
    func isHoliday(_ date: CalendarDate) -> Bool { warehouse.isHoliday(date.daysSinceEpoch) }

    /// The business day the order leaves the warehouse: today when before the cutoff (the method's
    /// own when it has one) on a business day, else the next business day; then handling days.
    func shipDate(now: Date, cutoff: Int? = nil) -> CalendarDate {
        let (today, minute) = localMoment(now)
        var first = today
        if !isBusinessDay(today) || ((cutoff ?? warehouse.cutoffMinutes).map { minute >= $0 } ?? false) {
            first = today.adding(days: 1)
        }
        return adding(businessDays: warehouse.handlingDays, to: businessDay(onOrAfter: first))
    }

    func estimate(transit: ClosedRange<Int>, now: Date) -> DeliveryEstimate {
        estimate(transit: transit, shipDate: shipDate(now: now))
    }

    func estimate(transit: ClosedRange<Int>, shipDate ship: CalendarDate, closed: [Int] = []) -> DeliveryEstimate {
        DeliveryEstimate(from: adding(businessDays: transit.lowerBound, to: ship, closed: closed),
                         to: adding(businessDays: transit.upperBound, to: ship, closed: closed))
    }
}
