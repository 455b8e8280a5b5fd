import Foundation
import Testing
@testable import ShippingRules

@Suite("Delivery estimates on the warehouse calendar")
struct DeliveryTests {
    private let calendar = DeliveryCalendar(warehouse: Warehouse(
        timeZone: TimeZone(identifier: "America/Los_Angeles")!, cutoffMinutes: 14 * 60, businessDays: [1, 2, 3, 4, 5],
        holidays: [Fixture.date("2026-12-25"), Fixture.date("2027-01-01")], handlingDays: 0))

    private func estimate(_ instant: String, _ transit: ClosedRange<Int>, handling: Int = 0) -> String {
        var c = calendar
        if handling > 0 { c = DeliveryCalendar(warehouse: Warehouse(timeZone: c.warehouse.timeZone, cutoffMinutes: c.warehouse.cutoffMinutes,
                                                                   businessDays: c.warehouse.businessDays, holidays: c.warehouse.holidays,
                                                                   handlingDays: handling)) }
        let e = c.estimate(transit: transit, now: Fixture.instant(instant))
        return "\(e.from)…\(e.to)"
    }

    @Test func aWeekendOrderShipsMonday() {
        #expect(estimate("2026-10-10T12:00:00Z", 3...5) == "2026-10-15…2026-10-19")      // Sat → ships Mon 10-12
    }

    @Test func theCutoffMinuteItselfIsTooLate() {
        #expect(estimate("2026-10-12T20:59:00Z", 0...0) == "2026-10-12…2026-10-12")      // Mon 13:59 PDT
        #expect(estimate("2026-10-12T21:00:00Z", 0...0) == "2026-10-13…2026-10-13")      // Mon 14:00 PDT
    }

    @Test func aHolidayBeforeAWeekendAndNewYearAreSkipped() {
        // Thu 12-24 after the cutoff: Fri 12-25 is a holiday, then the weekend: ships Mon 12-28;
        // three business days → Thu 12-31; five → Tue 01-05 (01-01 is a holiday).
        #expect(estimate("2026-12-24T23:30:00Z", 3...5) == "2026-12-31…2027-01-05")
    }

    @Test func theLocalClockFollowsTheDaylightSavingChange() {
        // 21:59 UTC is 14:59 PDT on Friday 10-30 (after the cutoff) but 13:59 PST on Monday 11-02 (before it).
        #expect(estimate("2026-10-30T21:59:00Z", 0...0) == "2026-11-02…2026-11-02")
        #expect(estimate("2026-11-02T21:59:00Z", 0...0) == "2026-11-02…2026-11-02")
        #expect(estimate("2026-11-02T22:00:00Z", 0...0) == "2026-11-03…2026-11-03")
        // The local date, not the UTC date: 03:30 UTC on Tuesday is still Monday evening in California.
        #expect(calendar.localMoment(Fixture.instant("2026-11-03T03:30:00Z")).date.description == "2026-11-02")
    }

    @Test func handlingDaysCountBusinessDaysBeforeTransit() {
        #expect(estimate("2026-10-09T16:00:00Z", 1...2, handling: 2) == "2026-10-14…2026-10-15")   // Fri 09:00: ships Tue 10-13
    }

    @Test func fromIsNeverAfterTo() {
        for day in 0..<60 {
            let e = calendar.estimate(transit: 0...4, now: Fixture.instant("2026-12-01T12:00:00Z").addingTimeInterval(Double(day) * 86_400))
            #expect(e.from <= e.to)
        }
    }
}

@Suite("Delivery estimates: more calendar edges")
struct DeliveryEdgeTests {
    private let calendar = DeliveryCalendar(warehouse: Warehouse(
        timeZone: TimeZone(identifier: "America/Los_Angeles")!, cutoffMinutes: 14 * 60, businessDays: [1, 2, 3, 4, 5],
        holidays: [Fixture.date("2027-07-05")], handlingDays: 0))

    private func estimate(_ instant: String, _ transit: ClosedRange<Int>) -> String {
        let e = calendar.estimate(transit: transit, now: Fixture.instant(instant))
        return "\(e.from)…\(e.to)"
    }

    @Test func theSpringForwardMovesTheCutoffAnHourEarlierInUTC() {
        // 21:30 UTC is 13:30 PST on Friday 2027-03-12 (before the cutoff), 14:30 PDT on Monday 03-15 (after).
        #expect(estimate("2027-03-12T21:30:00Z", 1...1) == "2027-03-15…2027-03-15")
        #expect(estimate("2027-03-15T21:30:00Z", 1...1) == "2027-03-17…2027-03-17")
    }

    @Test func aMondayHolidayAfterTheWeekendIsSkipped() {
        // Friday 2027-07-02 after the cutoff: the weekend, then Monday 07-05 is a holiday: ships Tuesday 07-06.
        #expect(estimate("2027-07-02T22:00:00Z", 0...2) == "2027-07-06…2027-07-08")
    }

    @Test func aSundayOrderAtMidnightLocalIsStillSunday() {
        // 07:00 UTC Monday is 00:00 PDT Monday: a business day before the cutoff.
        #expect(estimate("2026-10-12T06:59:00Z", 0...0) == "2026-10-12…2026-10-12")    // Sunday 23:59 → Monday
        #expect(calendar.localMoment(Fixture.instant("2026-10-12T06:59:00Z")).date.description == "2026-10-11")
    }
}

@Suite("Rounding modes and levels with exact amounts")
struct RoundingTests {
    private func tax(mode: String, level: String, _ amounts: String...) throws -> String? {
        let set = try Fixture.rules("""
        rounding: { mode: \(mode), level: \(level) }
        tax: { layers: [{ id: t, zone: { country: US }, rate: 2.5% }] }
        shipping_methods: [{ id: flat, label: Flat, price: 0.00 }]

        """)
        let cart = Cart(items: amounts.enumerated().map { CartItem(id: "i\($0)", label: "I", quantity: 1, unitAmount: Fixture.usd($1)) })
        return set.quote(Fixture.request(address: PartialAddress(countryCode: "US"), cart: cart, selected: nil)).update?
            .summaryItems.first { $0.id == "tax" }?.amount.decimalString
    }

    @Test func halvesFollowTheModeAtEachLevel() throws {
        // 1.00 × 2.5 % = 0.025 per line: half_up 0.03, half_even 0.02, half_down 0.02.
        #expect(try tax(mode: "half_up", level: "line", "1.00") == "0.03")
        #expect(try tax(mode: "half_even", level: "line", "1.00") == "0.02")
        #expect(try tax(mode: "half_down", level: "line", "1.00") == "0.02")
        // Three lines of 0.025: per line 3 × 0.03 = 0.09 (half_up); on the total 0.075 → 0.08.
        #expect(try tax(mode: "half_up", level: "line", "1.00", "1.00", "1.00") == "0.09")
        #expect(try tax(mode: "half_up", level: "total", "1.00", "1.00", "1.00") == "0.08")
        #expect(try tax(mode: "half_even", level: "total", "1.00", "1.00", "1.00") == "0.08")
        #expect(try tax(mode: "half_down", level: "total", "1.00", "1.00", "1.00") == "0.07")
    }
}
