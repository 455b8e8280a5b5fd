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
}
