import Foundation
import Testing
@testable import ShippingRules

@Suite("Reference data: public holidays, postal-code formats and VAT presets")
struct ReferenceDataTests {
    private func days(_ region: String) -> [String] { (HolidayCalendar.days(of: region) ?? []).map { CalendarDate(daysSinceEpoch: $0).description } }

    @Test func knownHolidaysOfSeveralRegions() {
        #expect(days("US").contains("2026-11-26"))            // Thanksgiving
        #expect(days("US-CA").contains("2026-11-26"))         // a state's calendar holds the federal holidays
        #expect(days("US-CA").contains("2026-03-31"))         // César Chávez Day, California only
        #expect(!days("US").contains("2026-03-31"))
        #expect(days("GB-SCT").contains("2026-11-30"))        // St Andrew's Day
        #expect(!days("GB-ENG").contains("2026-11-30"))
        #expect(days("GB-ENG").contains("2026-12-28"))        // Boxing Day (observed)
        #expect(days("JP").contains("2027-01-01"))
        #expect(days("DE-BY").contains("2026-01-06"))         // Epiphany, Bavaria only
        #expect(!days("DE").contains("2026-01-06"))
        #expect(HolidayCalendar.years == 2025...2030)
        #expect(days("US").filter { $0.hasPrefix("2026") } == ["2026-01-01", "2026-01-19", "2026-02-16", "2026-05-25", "2026-06-19",
                                                              "2026-07-03", "2026-07-04", "2026-09-07", "2026-10-12", "2026-11-11",
                                                              "2026-11-26", "2026-12-25"])
        for region in ["CA-ON", "GB-NIR", "GB-WLS", "FR", "IE", "NL", "KW", "AE", "SA", "BH", "OM", "QA"] { #expect(!days(region).isEmpty, "\(region)") }
    }

    @Test func postalCodesOfTheCountrysRealFormatPassIncludingApplePaysShortenedForms() throws {
        func accepts(_ country: String, _ code: String) throws -> Bool { try #require(PostalCodeFormat.countries[country]).accepts(code) }
        #expect(try accepts("US", "95014"))
        #expect(try accepts("US", "95014-1234"))
        #expect(try !accepts("US", "9501"))
        #expect(try !accepts("US", "ABCDE"))
        #expect(try accepts("GB", "SW1A 1AA"))
        #expect(try accepts("GB", "SW1A"))          // outward code, as Apple Pay sends it
        #expect(try accepts("GB", "M1"))
        #expect(try !accepts("GB", "QQ1"))          // no such postcode area
        #expect(try !accepts("GB", "12345"))
        #expect(try accepts("CA", "M5V 3L9"))
        #expect(try accepts("CA", "M5V"))           // FSA
        #expect(try !accepts("CA", "D5V"))          // D starts no FSA
        #expect(try accepts("JP", "900-0001"))
        #expect(try accepts("DE", "10115"))
        #expect(try !accepts("DE", "1011"))
        #expect(PostalCodeFormat.countries["AE"] == nil)    // no postal codes there
    }

    private static let serviceability = """
    serviceability:
      - when: { postal_code_not_valid_for_country: true }
        error: { code: POSTAL_CODE_INVALID, message: "Check the postcode." }
    shipping_methods: [{ id: post, label: Post, price: 5.00 }]

    """

    @Test func aServiceabilityRuleRefusesACodeThatDoesNotFitItsCountry() throws {
        let rules = try Fixture.rules(Self.serviceability)
        func codes(_ country: String, _ code: String?) -> [String] {
            rules.quote(Fixture.request(address: PartialAddress(postalCode: code, countryCode: country), selected: nil)).errorCodes
        }
        #expect(codes("GB", "SW1A") == [])
        #expect(codes("GB", "ZZ9") == ["POSTAL_CODE_INVALID"])
        #expect(codes("CA", "M5V") == [])
        #expect(codes("US", "95014") == [])
        #expect(codes("US", "950") == ["POSTAL_CODE_INVALID"])
        #expect(codes("AE", "12345") == [])          // no format known: not refused
        #expect(codes("US", nil) == [])              // a missing code is for `address: missing_postal_code`
        let head = "version: 1\npayee: Shop\ncurrencies: [USD]\n"
        #expect(Fixture.loadError(head + Self.serviceability.replacingOccurrences(of: "true }", with: "false }"))?.description
                == "rules.yaml:5:48: serviceability[0].when.postal_code_not_valid_for_country: expected true (false would never "
                   + "refuse anything: leave the key out), found \"false\"")
    }

    @Test func holidayRegionsAndDatesMixInTheWarehouseCalendar() throws {
        let rules = try Fixture.rules("""
        warehouse: { time_zone: America/Los_Angeles, cutoff: "14:00", holidays: [US, 2026-12-24] }
        shipping_methods: [{ id: standard, label: Standard, price: 5.00, transit_days: 1 }]

        """)
        let holidays = rules.warehouse!.holidays.map(\.description)
        #expect(holidays.contains("2026-11-26"))
        #expect(holidays.contains("2026-12-24"))
        #expect(holidays.count == Set(days("US") + ["2026-12-24"]).count)
        // Wednesday 11-25 after the cutoff: Thanksgiving is skipped, ships Friday 11-27, arrives Monday 11-30.
        let update = rules.quote(Fixture.request(selected: nil, at: "2026-11-25T23:00:00Z")).update
        #expect(update?.shippingMethods.first?.deliveryEstimate.map { "\($0.from)..\($0.to)" } == "2026-11-30..2026-11-30")
    }

    @Test func openOnRemovesARegionsDayTheWarehouseWorks() throws {
        let rules = try Fixture.rules("""
        warehouse: { time_zone: America/Los_Angeles, holidays: [US], open_on: [2026-10-12] }
        shipping_methods: [{ id: standard, label: Standard, price: 5.00 }]

        """)
        let holidays = Set(rules.warehouse!.holidays.map(\.description))
        #expect(!holidays.contains("2026-10-12"))
        #expect(holidays.contains("2027-10-11"))       // Columbus Day of another year is still a holiday
        #expect(Fixture.loadError("""
        version: 1
        payee: Shop
        currencies: [USD]
        warehouse: { time_zone: UTC, holidays: [US], open_on: [2026-10-13] }
        shipping_methods: [{ id: s, label: S, price: 5.00 }]
        """)?.description == "rules.yaml:4:56: warehouse.open_on[0]: 2026-10-13 is not among the warehouse's holidays, "
                             + "so open_on changes nothing; leave it out")
    }

    /// us-acme names the federal holidays and works on Columbus Day and Veterans Day 2026.
    @Test func theUSExampleClosesOnFederalHolidaysButColumbusAndVeteransDay2026() {
        let holidays = Set(Fixture.acme.warehouse!.holidays.map(\.description))
        #expect(["2026-11-26", "2026-12-25", "2027-01-01", "2027-01-18"].allSatisfy(holidays.contains))
        #expect(!holidays.contains("2026-10-12") && !holidays.contains("2026-11-11"))
    }

    @Test func deliveryCalendarsTakeRegionCodes() throws {
        let rules = try Fixture.rules("""
        warehouse: { time_zone: Europe/London, cutoff: "14:00" }
        delivery_calendars: [{ zone: { country: GB, state: SCT }, holidays: [GB-SCT] }]
        shipping_methods: [{ id: post, label: Post, price: 5.00, transit_days: 1 }]

        """, head: "version: 1\npayee: Shop\ncurrencies: [GBP]\n")
        func arrives(_ state: String) -> String? {
            let request = QuoteRequest(currency: .gbp, address: PartialAddress(state: state, postalCode: "EH1", countryCode: "GB"),
                                       cart: Cart(items: [CartItem(id: "a", label: "A", quantity: 1, unitAmount: try! Money(parsing: "10.00", currency: .gbp))]),
                                       now: Fixture.instant("2026-11-27T10:00:00Z"))
            return rules.quote(request).update?.shippingMethods.first?.deliveryEstimate.map { "\($0.from)" }
        }
        // Friday 11-27 ships that day; one transit day is Monday 11-30, St Andrew's Day in Scotland.
        #expect(arrives("SCT") == "2026-12-01")
        #expect(arrives("ENG") == "2026-11-30")
    }

    @Test func anUnknownHolidayRegionIsAnErrorNamingTheFieldWithWhatWasMeant() {
        let head = "version: 1\npayee: Shop\ncurrencies: [USD]\nshipping_methods: [{ id: s, label: S, price: 5.00 }]\n"
        #expect(Fixture.loadError(head + "warehouse: { time_zone: UTC, holidays: [US-CX] }\n")?.description
                == "rules.yaml:5:41: warehouse.holidays[0]: no public holidays for 'US-CX' in the reference data (countries and ISO 3166-2 "
                   + "subdivisions like US, US-CA, GB-SCT, 2025–2030); write the dates instead; did you mean US-CA?")
        #expect(Fixture.loadError(head + "warehouse: { time_zone: UTC, holidays: [UK-SCT] }\n")?.description
                .hasSuffix("did you mean GB-SCT?") == true)
        #expect(Fixture.loadError(head + "warehouse: { time_zone: UTC }\ndelivery_calendars: [{ zone: { country: US }, holidays: [XX] }]\n")?
                .description.contains("delivery_calendars[0].holidays[0]: no public holidays for 'XX'") == true)
    }

    private func vatRules(_ layers: String) throws -> RuleSet {
        try Fixture.rules("""
        tax:
          summary: per_layer
          layers:
        \(layers)
        shipping_methods: [{ id: post, label: Post, price: 10.00 }]

        """, head: "version: 1\npayee: Shop\ncurrencies: [EUR]\n")
    }

    private func taxLines(_ rules: RuleSet, _ country: String) throws -> [String] {
        let cart = Cart(items: [CartItem(id: "a", label: "A", quantity: 1, unitAmount: try Money(parsing: "100.00", currency: .eur))])
        let update = try #require(rules.quote(QuoteRequest(currency: .eur, address: PartialAddress(postalCode: "10115", countryCode: country),
                                                           cart: cart, now: Fixture.instant("2026-10-10T12:00:00Z"))).update)
        return update.summaryItems.lines.filter { $0.hasPrefix("tax") }
    }

    @Test func theEUPresetChargesEachDestinationsStandardRateOnGoodsAndShipping() throws {
        let rules = try vatRules("    - { preset: eu_oss }")
        #expect(rules.tax.layers.count == 27)
        #expect(try taxLines(rules, "DE") == ["tax-eu_oss-de VAT 20.90"])     // 19 % of 100.00 + 10.00
        #expect(try taxLines(rules, "FR") == ["tax-eu_oss-fr VAT 22.00"])     // 20 %
        #expect(try taxLines(rules, "IE") == ["tax-eu_oss-ie VAT 25.30"])     // 23 %
        #expect(try taxLines(rules, "GB") == [])
    }

    @Test func aPresetRateCanBeOverriddenPerCountry() throws {
        let rules = try vatRules("    - { preset: eu_oss, shipping: exempt, label: MwSt, countries: { DE: 16%, FR: { categories: { books: 5.5% } } } }")
        #expect(try taxLines(rules, "DE") == ["tax-eu_oss-de MwSt 16.00"])
        let fr = try #require(rules.tax.layers.first { $0.id == "eu_oss-fr" })
        #expect(fr.rate == ExactDecimal(20))
        #expect(fr.categories["books"]?.rate == ExactDecimal(significand: 55, scale: 1))
        #expect(Fixture.loadError("version: 1\npayee: Shop\ncurrencies: [EUR]\ntax: { layers: [{ preset: eu_oss, countries: { GB: 20% } }] }\n"
                                  + "shipping_methods: [{ id: s, label: S, price: 5.00 }]\n")?.description
                .contains("tax.layers[0].countries.GB: unknown key 'GB'") == true)
        #expect(Fixture.loadError("version: 1\npayee: Shop\ncurrencies: [EUR]\ntax: { layers: [{ preset: eu_vat }] }\n"
                                  + "shipping_methods: [{ id: s, label: S, price: 5.00 }]\n")?.description
                == "rules.yaml:4:27: tax.layers[0].preset: expected eu_oss|uk_vat|gcc_vat, found \"eu_vat\"")
    }

    @Test func theGulfAndUKPresetsTakeTheirRatesFromTheData() {
        #expect(TaxPreset.gccVAT.rates.map { "\($0.country) \($0.standard)" } == ["AE 5", "BH 10", "OM 5", "SA 15"])
        #expect(TaxPreset.ukVAT.rates.map { "\($0.country) \($0.standard)" } == ["GB 20"])
        #expect(VATRate.countries["DE"]?.reduced == [ExactDecimal(7)])
        #expect(TaxPreset.euOSS.rates.count == 27)
    }

    /// The generated Swift tables say what the committed JSON says.
    @Test func theGeneratedTablesMatchTheCommittedJSON() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        func json(_ name: String) throws -> [String: Any] {
            let data = try Data(contentsOf: root.appendingPathComponent("reference-data/\(name)"))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let holidays = try #require(try json("holidays.json")["regions"] as? [String: [String: String]])
        #expect(holidays.count == HolidayCalendar.regions.count)
        for (region, dates) in holidays { #expect(days(region) == dates.keys.sorted(), "\(region)") }

        let postal = try #require(try json("postal-codes.json")["countries"] as? [String: [String: Any]])
        #expect(Set(postal.keys) == Set(PostalCodeFormat.countries.keys))
        for (country, entry) in postal {
            let examples = entry["examples"] as? [String] ?? []
            for example in examples { #expect(PostalCodeFormat.countries[country]?.accepts(example.uppercased()) == true, "\(country) \(example)") }
        }

        let vat = try #require(try json("vat-rates.json")["countries"] as? [String: [String: Any]])
        #expect(Set(vat.keys) == Set(VATRate.countries.keys))
        for (country, entry) in vat {
            let standard = try ExactDecimal(parsing: try #require(entry["standard"] as? String)[...])
            #expect(VATRate.countries[country]?.standard == standard, "\(country)")
            #expect(VATRate.countries[country]?.reduced.map(\.description) == (entry["reduced"] as? [String]), "\(country)")
        }
    }
}
