import Testing
@testable import ShippingRules

/// Values that would load and never match what addresses carry (`UK`, `New York`), or load and
/// mean something else than meant (`EST`, `rate: 0.0725`): refused or warned, saying what was probably meant.
@Suite("Values addresses never carry, and values probably not meant")
struct RulesValueTests {
    private func error(_ body: String) -> RulesError? { Fixture.loadError("version: 1\npayee: Shop\ncurrencies: [USD]\n" + body) }

    private let method = "shipping_methods: [{ id: s, label: S, price: 5.00 }]\n"

    @Test func ukIsNotACountryCodeAndGBIsSuggested() {
        let e = error("zones: [{ id: uk, country: UK }]\n" + method)
        #expect(e?.errors.map(\.description) == [
            #"rules.yaml:4:28: zones[0].country: expected an ISO 3166-1 alpha-2 country code like US, found "UK", which no address carries; did you mean GB?"#,
        ])
    }

    @Test func everyPlaceACountryIsWrittenIsChecked() {
        let e = error("""
        serviceability:
          - when: { country_not_in: [US, XX] }
            error: { code: COUNTRY_NOT_SUPPORTED, message: US only }
        shipping_methods: [{ id: s, label: S, countries: [USA], price: 5.00 }]

        """)
        #expect(e?.errors.map(\.description) == [
            #"rules.yaml:5:34: serviceability[0].when.country_not_in[1]: expected an ISO 3166-1 alpha-2 country code like US, found "XX", which no address carries"#,
            #"rules.yaml:7:51: shipping_methods[0].countries[0]: expected an ISO 3166-1 alpha-2 country code like US, found "USA", which no address carries; did you mean US?"#,
        ])
    }

    @Test func aStateNameIsRefusedWithItsCode() {
        let e = error("zones: [{ id: ny, country: US, state: New York }, { id: ca, country: US, states: [US-CA] }]\n" + method)
        #expect(e?.errors.map(\.description) == [
            #"rules.yaml:4:39: zones[0].state: expected an ISO 3166-2 subdivision code like CA (addresses carry codes, not names), found "New York"; did you mean NY?"#,
            #"rules.yaml:4:83: zones[1].states[0]: expected an ISO 3166-2 subdivision code like CA (addresses carry codes, not names), found "US-CA"; did you mean CA? (write the country under country:)"#,
        ])
    }

    @Test func aFixedOffsetTimeZoneIsAWarningNamingTheIANAZone() throws {
        let set = try Fixture.rules("warehouse: { time_zone: EST }\n" + method)
        #expect(set.warnings.map(\.description) == [
            #"rules.yaml:4:25: warning: warehouse.time_zone: "EST" is a fixed offset (UTC-05:00) all year, not the warehouse's local time: where daylight saving time is kept, cutoffs fall an hour off in summer and quotes can promise delivery a day early; write the IANA zone of the warehouse, like America/New_York [fixed-offset-time-zone]"#,
        ])
    }

    @Test func anAbbreviationThatIsNoZoneIsAnErrorNamingTheIANAZone() {
        let e = error("warehouse: { time_zone: PDT }\n" + method)
        #expect(e?.description == #"rules.yaml:4:25: warehouse.time_zone: expected an IANA time zone like America/Los_Angeles, found "PDT"; did you mean America/Los_Angeles?"#)
    }

    @Test func aRateBelowAPointOnePercentWithoutPercentSignIsAWarning() throws {
        let set = try Fixture.rules("tax:\n  layers:\n    - { id: ny, zone: { country: US, state: NY }, rate: 0.0725, categories: { food: 0.04% } }\n" + method)
        #expect(set.warnings.map(\.description) == [
            "rules.yaml:6:57: warning: tax.layers[0].rate: rate 0.0725 reads as 0.0725 % (rates are percentages); for 7.25 % write 7.25%, or write 0.0725% if 0.0725 % is meant [tiny-rate]",
        ])
    }

    @Test func ordinaryValuesRaiseNothing() throws {
        let set = try Fixture.rules("""
        warehouse: { time_zone: America/New_York }
        zones: [{ id: gb, country: gb }, { id: kosovo, country: XK }]
        tax:
          layers: [{ id: ny, zone: { country: US, state: ny }, rate: 4, categories: { food: 0 } }]

        """ + method)
        #expect(set.warnings.isEmpty)
    }
}
