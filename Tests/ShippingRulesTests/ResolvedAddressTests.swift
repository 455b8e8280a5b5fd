import Foundation
import Testing
@testable import ShippingRules

/// The quick reading of an address already in codes gives what normalizing and then resolving it
/// gives, or declines; every field value below is tried with every other.
@Suite("an address resolved in codes")
struct ResolvedAddressTests {
    static let countries: [String?] = [nil, "US", "CA", "GB", "JP", "DE", "UK", "us", "Us", "U", "USA", " US", "US ", "",
                                       "  ", "United States", "ＵＳ", "U1", "1A", "\u{0}S"]
    static let states: [String?] = [nil, "CA", "ON", "QC", "13", "ENG", "NY", "XX", "ca", "C", "CAL", "California", "", " ",
                                    "N.Y.", "NY ", "東京都", "A1", "1", "ZZZ", "E-N", "ABCDEFGHI"]
    static let postalCodes: [String?] = [nil, "95014", "94105-1234", "M5V", "M5V 3L9", "m5v", "SW1A1AA", "SW1A 1AA",
                                         "９００-０００１", "", " ", "١٢٣", "9501é", "A-1", "950\t14", "12345678901"]
    static let cities: [String?] = [nil, "Cupertino", " san  Francisco ", "", "Québec"]

    /// The way every address went before: the normalizer, then the resolution.
    static func resolvedTheLongWay(_ address: PartialAddress, foldCity: Bool) -> ResolvedAddress {
        var trace = Trace(enabled: false)
        return AddressNormalizer.normalizedIfChanged(address, trace: &trace).map { ResolvedAddress($0, foldCity: foldCity) }
            ?? ResolvedAddress(address, foldCity: foldCity)
    }

    @Test func theQuickReadingAgreesWithNormalizingThenResolvingOrDeclines() {
        var quick = 0, declined = 0
        for country in Self.countries {
            for state in Self.states {
                for postalCode in Self.postalCodes {
                    for (k, city) in Self.cities.enumerated() {
                        let address = PartialAddress(city: city, state: state, postalCode: postalCode, countryCode: country)
                        let foldCity = k % 2 == 0
                        guard let read = ResolvedAddress(inCodes: address, foldCity: foldCity) else { declined += 1; continue }
                        quick += 1
                        #expect(read == Self.resolvedTheLongWay(address, foldCity: foldCity), "\(address)")
                    }
                }
            }
        }
        // Taken: by country, nil or the states that are codes (15, with no country or DE, whose
        // subdivisions have no table), or nil and its table's codes (US: CA, NY; CA: ON, QC; GB: ENG;
        // JP: 13); postal codes nil, 95014, M5V, SW1A1AA, 12345678901; every city.
        #expect(quick + declined == 20 * 22 * 16 * 5)
        #expect(quick == (16 + 3 + 3 + 2 + 2 + 16) * 5 * 5)
    }

    @Test func anAddressInCodesIsTakenAsSent() throws {
        let read = try #require(ResolvedAddress(inCodes: PartialAddress(city: "San  Francisco ", state: "CA", postalCode: "94105",
                                                                        countryCode: "US"), foldCity: true))
        #expect(read.country == "US" && read.state == "CA" && read.postalCode == "94105" && read.rawPostalCode == "94105")
        #expect(read.city == "san francisco")
        #expect(read.countryWord == CodeList.word("US") && read.stateWord == CodeList.word("CA"))
        let unfolded = try #require(ResolvedAddress(inCodes: PartialAddress(city: "San  Francisco ", countryCode: "US"), foldCity: false))
        #expect(unfolded.city == "San  Francisco " && unfolded.state == nil && unfolded.stateWord == 0 && unfolded.postalCode == nil)
    }

    @Test func whatTheNormalizerWouldChangeIsLeftToIt() {
        for (country, state, postalCode) in [("UK", nil, nil), ("us", nil, nil), ("US", "XX", nil), ("US", "ca", nil),
                                             ("US", "California", nil), ("US", "CA", "94105-1234"), ("CA", "ON", "M5V 3L9"),
                                             ("JP", "13", "９００-０００１"), ("US", " CA", nil), ("", nil, nil)] as [(String, String?, String?)] {
            #expect(ResolvedAddress(inCodes: PartialAddress(state: state, postalCode: postalCode, countryCode: country), foldCity: true) == nil,
                    "\(country) \(state ?? "-") \(postalCode ?? "-")")
        }
    }
}
