import Foundation
import Testing
@testable import ShippingRules

/// The numbered business days answer exactly what stepping day by day answers, inside the
/// table's years, across their edges, and when a calendar has no business day at all.
@Suite("Business days numbered at load")
struct BusinessDayTableTests {
    private static func warehouse(businessDays: Set<Int>, holidays: [String]) -> Warehouse {
        Warehouse(timeZone: TimeZone(identifier: "America/Los_Angeles")!, cutoffMinutes: 14 * 60, businessDays: businessDays,
                  holidays: Set(holidays.map(Fixture.date)), handlingDays: 0)
    }

    /// The first business day on or after `day`, day by day, giving up after 366 days.
    private static func onOrAfter(_ w: Warehouse, _ day: Int) -> Int {
        var d = day, n = 0
        while !(w.businessDays.contains(((d % 7) + 7 + 4) % 7) && !w.isHoliday(d)) && n < 366 { d += 1; n += 1 }
        return d
    }

    /// The walk the table replaces, written out plainly: `steps` times to the next business day.
    private static func walk(_ w: Warehouse, from day: Int, steps: Int) -> Int {
        var d = day
        for _ in 0..<steps { d = onOrAfter(w, d + 1) }
        return d
    }

    @Test func everyDayAcrossTheTablesEdgesAgreesWithTheDayByDayWalk() {
        let w = Self.warehouse(businessDays: [1, 2, 3, 4, 5], holidays: ["2019-12-25", "2020-01-01", "2026-12-25", "2039-12-30", "2040-01-02"])
        let calendar = DeliveryCalendar(warehouse: w)
        let edges = [BusinessDayTable.span.lowerBound, BusinessDayTable.span.upperBound]
        var compared = 0
        for edge in edges {
            for day in (edge - 40)...(edge + 40) {
                #expect(calendar.businessDay(onOrAfter: CalendarDate(daysSinceEpoch: day)).daysSinceEpoch == Self.onOrAfter(w, day))
                for steps in 0...12 {
                    let from = CalendarDate(daysSinceEpoch: day)
                    #expect(calendar.adding(businessDays: steps, to: from).daysSinceEpoch == Self.walk(w, from: day, steps: steps),
                            "day \(day), \(steps) business days")
                    compared += 1
                }
            }
        }
        #expect(compared == 2 * 81 * 13)
    }

    @Test func theTablesAnswersAreTheWalksInsideTheSpan() {
        let w = Self.warehouse(businessDays: [1, 3, 5], holidays: ["2026-12-25", "2027-01-01", "2027-01-04"])
        let table = BusinessDayTable(from: BusinessDayTable.span.lowerBound, through: BusinessDayTable.span.upperBound) { day in
            w.businessDays.contains(((day % 7) + 7 + 4) % 7) && !w.isHoliday(day)
        }
        let christmas = Fixture.date("2026-12-24").daysSinceEpoch   // a Thursday
        // Mon/Wed/Fri: Fri 12-25 and Mon 01-04 and Fri 01-01 are holidays.
        #expect(table.businessDay(onOrAfter: christmas).map(CalendarDate.init(daysSinceEpoch:))?.description == "2026-12-28")
        #expect(table.adding(businessDays: 1, to: christmas).map(CalendarDate.init(daysSinceEpoch:))?.description == "2026-12-28")
        #expect(table.adding(businessDays: 3, to: christmas).map(CalendarDate.init(daysSinceEpoch:))?.description == "2027-01-06")
        #expect(table.adding(businessDays: 0, to: christmas) == christmas)
        for day in christmas..<(christmas + 400) {
            #expect(table.businessDay(onOrAfter: day) == Self.onOrAfter(w, day))
            #expect(table.adding(businessDays: 7, to: day) == Self.walk(w, from: day, steps: 7))
        }
    }

    @Test func outsideTheSpanTheTableAnswersNothing() {
        let table = BusinessDayTable(from: 100, through: 120) { _ in true }
        #expect(table.businessDay(onOrAfter: 99) == nil)
        #expect(table.businessDay(onOrAfter: 121) == nil)
        #expect(table.businessDay(onOrAfter: 100) == 100)
        #expect(table.adding(businessDays: 20, to: 99) == 119)
        #expect(table.adding(businessDays: 21, to: 99) == 120)
        #expect(table.adding(businessDays: 22, to: 99) == nil)      // past the last day it knows
        #expect(table.adding(businessDays: 1, to: 120) == nil)
        #expect(table.adding(businessDays: -1, to: 110) == nil)
    }

    @Test func aCalendarWithoutBusinessDaysStillStopsAfterAYear() {
        let w = Self.warehouse(businessDays: [], holidays: [])
        let calendar = DeliveryCalendar(warehouse: w)
        let day = Fixture.date("2026-12-03")
        #expect(calendar.businessDay(onOrAfter: day).daysSinceEpoch == day.daysSinceEpoch + 366)
        #expect(calendar.adding(businessDays: 2, to: day).daysSinceEpoch == day.daysSinceEpoch + 2 * 367)
        #expect(BusinessDayTable(from: 0, through: 1000) { _ in false }.businessDay(onOrAfter: 10) == nil)
    }

    @Test func aGapOfMoreThanAYearLeavesTheWalkToAnswer() {
        // Business days only on day 10 and day 500: the walk gives up after 366 days, so must the table.
        let table = BusinessDayTable(from: 0, through: 1000) { $0 == 10 || $0 == 500 }
        #expect(table.businessDay(onOrAfter: 11) == nil)
        #expect(table.businessDay(onOrAfter: 5) == nil)
    }
}
