import Testing
@testable import ShippingRules

@Suite("Calendar dates")
struct CalendarDateTests {
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
