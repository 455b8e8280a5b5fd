import Testing
@testable import ShippingRules

@Suite("Calendar dates")
struct CalendarDateTests {
    @Test func everyDayOfYears1To9999HasTheSameYearMonthAndDayByBothAlgorithmsAndComesBackToItsNumber() {
        var differing = 0, notBack = 0
        for day in CalendarDate.firstOfYear1...CalendarDate.lastOfYear9999 {
            let date = CalendarDate(daysSinceEpoch: day)
            let (year, month, dayOfMonth) = date.components
            let other = date.anyComponents
            if year != other.year || month != other.month || dayOfMonth != other.day { differing += 1 }
            if CalendarDate.days(year: year, month: month, day: dayOfMonth) != day { notBack += 1 }
        }
        #expect(differing == 0)
        #expect(notBack == 0)
        #expect(CalendarDate(daysSinceEpoch: CalendarDate.firstOfYear1).components == (1, 1, 1))
        #expect(CalendarDate(daysSinceEpoch: CalendarDate.lastOfYear9999).components == (9999, 12, 31))
        #expect(CalendarDate(daysSinceEpoch: 0).components == (1970, 1, 1))
        #expect(CalendarDate(daysSinceEpoch: 20_513).components == (2026, 3, 1))
        #expect(CalendarDate(daysSinceEpoch: 20_512).components == (2026, 2, 28))
        // Outside 1…9999 the general algorithm answers.
        #expect(CalendarDate(daysSinceEpoch: CalendarDate.firstOfYear1 - 1).components == (0, 12, 31))
        #expect(CalendarDate(daysSinceEpoch: CalendarDate.lastOfYear9999 + 1).components == (10000, 1, 1))
    }

    @Test func addingDaysCrossesMonthsYearsAndLeapDays() {
        #expect(Fixture.date("2026-12-30").adding(days: 3).description == "2027-01-02")
        #expect(Fixture.date("2028-02-28").adding(days: 1).description == "2028-02-29")
        #expect(Fixture.date("2027-02-28").adding(days: 1).description == "2027-03-01")
        #expect(Fixture.date("2026-03-01").adding(days: -1).description == "2026-02-28")
    }

    @Test func weekdayCountsFromSunday() {
        #expect(Fixture.date("2026-10-10").weekday == 6)    // Saturday
        #expect(Fixture.date("2026-12-25").weekday == 5)    // Friday
        #expect(Fixture.date("1970-01-01").weekday == 4)    // Thursday
    }

    @Test func isoTextIsReadStrictly() {
        #expect(CalendarDate(iso: "2026-02-29") == nil)
        #expect(CalendarDate(iso: "2026-2-01") == nil)
        #expect(CalendarDate(iso: "2026-10-10")?.description == "2026-10-10")
    }
}
