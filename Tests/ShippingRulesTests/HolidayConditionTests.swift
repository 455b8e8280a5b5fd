import Testing
@testable import ShippingRules

@Suite("Holidays apply to every condition, and methods may have their own cutoff")
struct HolidayConditionTests {
    /// A Los Angeles warehouse closed on Thanksgiving, a same-day courier, and a noon-cutoff express.
    private static let rules = try! Fixture.rules("""
    warehouse: { time_zone: America/Los_Angeles, cutoff: "14:00", business_days: [mon, tue, wed, thu, fri], holidays: [2026-11-26] }
    shipping_methods:
      - { id: standard, label: Standard, price: 5.00, transit_days: { min: 3, max: 5 } }
      - { id: express, label: Express, price: 12.00, transit_days: 1, cutoff: "12:00" }
      - { id: same-day, label: Same day, detail: Today before 9pm, price: 15.00, transit_days: 0,
          when: { order_before: "14:00", weekdays: [mon, tue, wed, thu, fri] } }
      - { id: weekday-only, label: Weekday, price: 7.00, when: { weekdays: [thu] } }
      - { id: morning, label: Morning, price: 9.00, when: { order_before: "13:00" } }

    """)

    private func offered(at instant: String) -> [String] {
        let explained = Self.rules.explain(Fixture.request(selected: nil, at: instant))
        return explained.result.update?.shippingMethods.map { m in
            m.deliveryEstimate.map { "\(m.id) \($0.from)..\($0.to)" } ?? m.id
        } ?? []
    }

    @Test func thanksgivingMorningOffersNeitherSameDayNorAWeekdayOrOrderBeforeMethod() {
        // Thursday 10:00 PST: before every order_before, a Thursday, but the warehouse is closed.
        #expect(offered(at: "2026-11-26T18:00:00Z") == ["standard 2026-12-02..2026-12-04", "express 2026-11-30..2026-11-30"])
        let trace = Self.rules.explain(Fixture.request(selected: nil, at: "2026-11-26T18:00:00Z")).trace
        #expect(trace.contains("method same-day not offered: ordered on 2026-11-26, a warehouse holiday"))
        #expect(trace.contains("method weekday-only not offered: not offered on 2026-11-26, a warehouse holiday"))
        #expect(trace.contains("method morning not offered: ordered on 2026-11-26, a warehouse holiday"))
    }

    @Test func theNextThursdayOffersThemAll() {
        #expect(offered(at: "2026-12-03T18:00:00Z") == ["standard 2026-12-08..2026-12-10", "express 2026-12-04..2026-12-04",
                                                       "same-day 2026-12-03..2026-12-03", "weekday-only", "morning"])
    }

    @Test func aMethodsOwnCutoffReplacesTheWarehousesForItsDates() {
        // Thursday 12-03 at 12:30 PST: after express's noon cutoff, before the warehouse's 14:00.
        #expect(offered(at: "2026-12-03T20:30:00Z") == ["standard 2026-12-08..2026-12-10", "express 2026-12-07..2026-12-07",
                                                       "same-day 2026-12-03..2026-12-03", "weekday-only", "morning"])
        // 11:59 is before it: express leaves today.
        #expect(offered(at: "2026-12-03T19:59:00Z")[1] == "express 2026-12-04..2026-12-04")
    }

    @Test func orderBeforeLaterThanTheCutoffIsWarned() throws {
        let found = try Fixture.rules("""
        warehouse: { time_zone: America/Los_Angeles, cutoff: "14:00" }
        shipping_methods:
          - { id: late, label: Late, price: 5.00, when: { order_before: "15:00" } }
          - { id: courier, label: Courier, price: 9.00, cutoff: "11:00", when: { order_before: "11:30" } }
          - { id: fine, label: Fine, price: 7.00, when: { order_before: "14:00" } }

        """).warnings
        #expect(found.map(\.description) == [
            "rules.yaml:6:5: warning: shipping_methods[0]: method late is offered until 15:00 but the warehouse's cutoff is 14:00: "
                + "orders in between ship the next business day; set order_before to 14:00 or earlier [order-before-after-cutoff]",
            "rules.yaml:7:5: warning: shipping_methods[1]: method courier is offered until 11:30 but the method's cutoff is 11:00: "
                + "orders in between ship the next business day; set order_before to 11:00 or earlier [order-before-after-cutoff]",
        ])
    }

    @Test func aMethodCutoffNeedsAWarehouseAndATimeOfDay() {
        #expect(Fixture.loadError("""
        version: 1
        payee: Shop
        currencies: [USD]
        shipping_methods: [{ id: s, label: S, price: 5.00, cutoff: "12:00" }]
        """)?.description.contains("a cutoff is warehouse time; add warehouse: {time_zone: …}") == true)
        #expect(Fixture.loadError("""
        version: 1
        payee: Shop
        currencies: [USD]
        warehouse: { time_zone: UTC }
        shipping_methods: [{ id: s, label: S, price: 5.00, cutoff: "25:00" }]
        """)?.description.contains("shipping_methods[0].cutoff") == true)
    }

    @Test func transitDaysSkipTheDestinationsHolidaysButTheShipDateDoesNot() throws {
        let rules = try Fixture.rules("""
        warehouse: { time_zone: America/Los_Angeles, cutoff: "14:00" }
        zones: [{ id: hawaii, country: US, state: HI }]
        delivery_calendars:
          - { zone: hawaii, holidays: [2027-03-26] }
          - { zone: { country: US, states: [HI, AK] }, holidays: [2027-03-22, 2027-03-29] }
        shipping_methods: [{ id: standard, label: Standard, price: 5.00, transit_days: { min: 3, max: 5 } }]

        """)
        func dates(_ state: String) -> String? {
            let request = Fixture.request(address: PartialAddress(city: "X", state: state, postalCode: "96813", countryCode: "US"),
                                          selected: nil, at: "2027-03-22T17:00:00Z")
            return rules.quote(request).update?.shippingMethods.first?.deliveryEstimate.map { "\($0.from)..\($0.to)" }
        }
        // Monday 03-22 ships that day (a destination holiday does not stop the warehouse); Hawaii
        // skips 03-26 and 03-29: Tue 23, Wed 24, Thu 25 | Fri 26 ✗, Mon 29 ✗, Tue 30, Wed 31.
        #expect(dates("HI") == "2027-03-25..2027-03-31")
        #expect(dates("AK") == "2027-03-25..2027-03-30")    // only 03-29 (and 03-22, the ship day)
        #expect(dates("OR") == "2027-03-25..2027-03-29")
    }

    @Test func aDeliveryCalendarNeedsAWarehouseAZoneAndDates() {
        let head = "version: 1\npayee: Shop\ncurrencies: [USD]\nshipping_methods: [{ id: s, label: S, price: 5.00 }]\n"
        #expect(Fixture.loadError(head + "delivery_calendars: [{ zone: { country: US }, holidays: [2027-01-01] }]\n")?.description
                == "rules.yaml:5:21: delivery_calendars: delivery calendars shift transit days, which are counted on the "
                   + "warehouse calendar; add warehouse: {time_zone: …}")
        let withWarehouse = head + "warehouse: { time_zone: UTC }\n"
        #expect(Fixture.loadError(withWarehouse + "delivery_calendars: [{ zone: { country: US }, holidays: [] }]\n")?.description
                .contains("delivery_calendars[0].holidays") == true)
        #expect(Fixture.loadError(withWarehouse + "delivery_calendars: [{ zone: nowhere, holidays: [2027-01-01] }]\n")?.description
                .contains("no zone with id 'nowhere'") == true)
        #expect(Fixture.loadError(withWarehouse + "delivery_calendars: [{ zone: { country: US }, holidays: [2027-02-30] }]\n")?.description
                .contains("delivery_calendars[0].holidays[0]") == true)
    }
}
