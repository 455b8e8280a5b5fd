import Foundation
import Testing
@testable import ShippingRules

/// The compiled zone index only skips zones that cannot match: a quote (indexed) and an explain
/// (every zone asked in turn) must give the same answer for every address.
@Suite("Compiled zone index")
struct ZoneIndexTests {
    private static let stress = try! RuleSet.load(yaml: StressRules.yaml(), fileName: "stress.yaml")

    private static var addresses: [PartialAddress] {
        var list = StressRules.addresses(count: 200)
        for k in 0..<100 {
            let base = list[k]
            list.append(PartialAddress(state: base.state, postalCode: base.postalCode, countryCode: base.countryCode))   // no city
            list.append(PartialAddress(city: base.city, postalCode: base.postalCode, countryCode: base.countryCode))     // no state
            list.append(PartialAddress(city: base.city, state: base.state, countryCode: base.countryCode))               // no postal code
            list.append(PartialAddress(city: base.city, state: base.state?.lowercased(), postalCode: "  " + (base.postalCode ?? ""),
                                       countryCode: base.countryCode?.lowercased()))
            list.append(PartialAddress(state: base.state, postalCode: String((base.postalCode ?? "").prefix(1)), countryCode: base.countryCode))
        }
        return list
    }

    @Test func theIndexAnswersLikeAskingEveryZone() {
        var offered = 0
        for address in Self.addresses {
            let request = Fixture.request(address: address, selected: nil)
            let indexed = Self.stress.quote(request)
            #expect(indexed == Self.stress.explain(request).result, "\(address)")
            offered += indexed.update?.shippingMethods.count ?? 0
        }
        #expect(offered > 100)      // the addresses really fall in zones
    }

    /// Up to 64 methods, a quote finds the eligible ones by bits per zone; beyond, by the lists.
    @Test func overSixtyFourMethodsAreFoundByTheirListsAndAnswerLikeAskingEveryZone() {
        let many = try! RuleSet.load(yaml: StressRules.yaml(zoneCount: 200, methodCount: 100), fileName: "stress-100.yaml")
        #expect(many.methodBitsByZone == nil)
        #expect(Self.stress.methodBitsByZone?.count == Self.stress.methodsByZone.count)
        var offered = 0
        for address in StressRules.addresses(count: 100) {
            let request = Fixture.request(address: address, selected: nil)
            let indexed = many.quote(request)
            #expect(indexed == many.explain(request).result, "\(address)")
            offered += indexed.update?.shippingMethods.count ?? 0
        }
        #expect(offered == 21)     // the stress rules and addresses are made the same way every run: they do fall in zones
    }

    @Test func theExamplesAnswerTheSameIndexedOrNot() throws {
        let acme = Fixture.acme
        let addresses = ["US/CA/95014/Cupertino", "US/CA/94612/Oakland", "US/CA/90012/Los Angeles", "US/AK/99501", "US/HI/96813",
                         "US//95014", "US/CA", "US/ca/950 14/cupertino", "US/NY/10001"].map(AddressShorthand.parse)
        for address in addresses {
            for now in ["2026-10-10T12:00:00Z", "2026-10-12T17:00:00Z"] {
                let request = Fixture.request(address: address, at: now)
                #expect(acme.quote(request) == acme.explain(request).result, "\(address) \(now)")
            }
        }
    }

    @Test func aLookupVisitsOnlyZonesOfTheAddressesCountryStateAndPrefix() {
        var filing = ZoneIndex.Filing()
        var zones: [Zone] = []
        for (i, (country, state, prefix)) in [("US", "CA", "94"), ("US", "CA", "95"), ("US", "NY", "10"), ("GB", nil, "SW1A"),
                                               ("CA", nil, nil)].enumerated() {
            var zone = Zone()
            zone.id = "z\(i)"
            zone.countries = [country]
            zone.states = state.map { [$0] }
            zone.postalCodes = prefix.map { [PostalPattern.prefix($0)] }
            zones.append(filing.file(zone))
        }
        let index = filing.index
        func matched(_ text: String) -> [Int] {
            let set = index.matching(ResolvedAddress(AddressShorthand.parse(text)))
            return zones.map(\.number).filter { set.contains($0) }
        }
        #expect(matched("US/CA/94107") == [0])
        #expect(matched("US/CA/95014") == [1])
        #expect(matched("US/NY/10001") == [2])
        #expect(matched("GB//SW1A") == [3])
        #expect(matched("GB//SW1") == [])
        #expect(matched("CA/ON/M5V") == [4])
        #expect(matched("US//94107") == [])
        #expect(filing.file(zones[0]).number == 0)      // a named zone is filed once
    }

    /// Zones filed by hand, and the numbers of those the index finds for an address.
    private struct FiledZones {
        var filing = ZoneIndex.Filing()
        var zones: [Zone] = []

        mutating func file(countries: Set<String>? = nil, states: Set<String>? = nil, excludeStates: Set<String> = []) {
            var zone = Zone()
            zone.id = "z\(zones.count)"
            zone.countries = countries
            zone.states = states
            zone.excludeStates = excludeStates
            zones.append(filing.file(zone))
        }

        func matched(_ address: PartialAddress) -> [Int] {
            let set = filing.index.matching(ResolvedAddress(address))
            return zones.map(\.number).filter { set.contains($0) }
        }

        func matched(_ text: String) -> [Int] { matched(AddressShorthand.parse(text)) }
    }

    @Test func aCountryInSeveralZonesAndZonesWithoutCountryOrStateAreAllFound() {
        var filed = FiledZones()
        filed.file(countries: ["US", "CA"])
        filed.file(countries: ["US"], states: ["CA"])
        filed.file(states: ["CA"])
        filed.file()
        filed.file(countries: ["US"], excludeStates: ["CA"])
        #expect(filed.matched("US/CA/95014") == [0, 1, 2, 3])
        #expect(filed.matched("US/NY/10001") == [0, 3, 4])
        #expect(filed.matched("CA/ON/M5V") == [0, 3])
        #expect(filed.matched("MX//01000") == [3])
    }

    @Test func codesThatLookAlikeButAreOtherBytesMatchNoZone() {
        var filed = FiledZones()
        filed.file(countries: ["KR"])
        filed.file(countries: ["US"], states: ["K"])
        #expect(filed.matched(PartialAddress(countryCode: "\u{212A}R")) == [])       // KELVIN SIGN, R
        #expect(filed.matched(PartialAddress(state: "\u{212A}", countryCode: "US")) == [])
        #expect(filed.matched(PartialAddress(countryCode: "kr")) == [0])
        #expect(filed.matched(PartialAddress(state: "k", countryCode: "US")) == [1])
    }

    /// The levels were found by code as text; found by the code's bytes now, a code filed after
    /// an equal one with other bytes still finds the level they share.
    @Test func canonicallyEqualCodesOfTwoZonesFindTheirOwnZone() {
        var filed = FiledZones()
        filed.file(countries: ["\u{C9}"])
        filed.file(countries: ["E\u{301}"])
        #expect(filed.matched(PartialAddress(countryCode: "E\u{301}")) == [1])
        #expect(filed.matched(PartialAddress(countryCode: "\u{C9}")) == [0])
    }

    @Test func zoneContainsAgreesWithMismatch() {
        for zone in Self.stress.zoneIndex.zones.prefix(100) {
            for address in Self.addresses.prefix(120) {
                let resolved = ResolvedAddress(address)
                #expect(zone.contains(resolved) == (zone.mismatch(resolved) == nil))
            }
        }
    }

    @Test func aLongPostalListAnswersLikeWalkingItPatternByPattern() throws {
        let written = (0..<30).map { String(format: "%05d", $0 * 7) } + ["941*", "945*..947*", "^1\\d{4}-\\d{4}$", "SW1A 1AA"]
        let patterns = try written.map { try PostalPattern(parsing: $0) }
        let match = PostalMatch(patterns)
        for raw in ["00000", "00007", "00008", "00203", "94110", "94612", "94800", "10001-2345", "SW1A 1AA", "sw1a1aa", "9"] {
            let code = PostalPattern.normalized(raw)
            #expect(match.matches(normalized: code, raw: raw) == patterns.contains { $0.matches(normalized: code, raw: raw) }, "\(raw)")
        }
        #expect(match.matches(normalized: "00203", raw: "00203"))
        #expect(!match.matches(normalized: "00204", raw: "00204"))
    }
}
