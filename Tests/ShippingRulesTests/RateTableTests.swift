import Foundation
import Testing
@testable import ShippingRules

/// Rate tables merchants already keep: a ZIP → combined rate CSV (Avalara's layout) as one US
/// layer, and WooCommerce's tax-rate export as layers by priority, read exactly and looked up per
/// address without walking the rows.
@Suite struct RateTableTests {
    /// A folder holding `rules.yaml` and `files` (relative path → text); the rules file's path.
    static func folder(rules: String, files: [String: String]) throws -> String {
        let dir = NSTemporaryDirectory() + "shipquote-rates-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/rates", withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
        try rules.write(toFile: dir + "/rules.yaml", atomically: true, encoding: .utf8)
        return dir + "/rules.yaml"
    }

    static func rules(layers: String, summary: String = "combined", shipping: String = "5.00") -> String {
        """
        version: 1
        payee: Shop
        currencies: [USD]
        rounding: { mode: half_up, level: line }
        tax:
          summary: \(summary)
          layers:
        \(layers)
        shipping_methods:
          - { id: standard, label: Standard, price: \(shipping) }
        """
    }

    static let zipCSV = """
        State,ZipCode,TaxRegionName,EstimatedCombinedRate,StateRate,EstimatedCountyRate,EstimatedCityRate,EstimatedSpecialRate,RiskLevel
        CA,95014,CUPERTINO,0.09125,0.06,0.0025,0,0.02875,1
        NY,10001,NEW YORK CITY,0.08875,0.04,0,0.045,0.00375,1
        NY,501,HOLTSVILLE,0.08625,0.04,0.04250,0,0.00375,1
        """

    static func zipRules(_ csv: String = zipCSV) throws -> RuleSet {
        try RuleSet.load(contentsOfFile: try folder(rules: rules(layers: "    - { id: us-zip, label: Sales tax, zip_rates: rates/zip-rates.csv, shipping: exempt }"),
                                                    files: ["rates/zip-rates.csv": csv]))
    }

    static func tax(_ rules: RuleSet, _ address: PartialAddress, cart: Cart = Fixture.contractCart) -> [String] {
        guard let update = rules.quote(Fixture.request(address: address, cart: cart)).update else { return ["not an update"] }
        return update.summaryItems.lines.filter { $0.hasPrefix("tax") }
    }

    static func loadError(_ path: () throws -> String) -> RulesError? {
        do { _ = try RuleSet.load(contentsOfFile: try path()); return nil } catch let error as RulesError { return error } catch { return nil }
    }

    // MARK: ZIP tables

    @Test func aZipTableChargesTheAddressZipsCombinedRateExactly() throws {
        let rules = try Self.zipRules()
        // 45.00 after the promo: × 9.125 % = 4.10625 → 4.11; × 8.875 % = 3.99375 → 3.99; shipping exempt.
        #expect(Self.tax(rules, PartialAddress(city: "Cupertino", state: "CA", postalCode: "95014", countryCode: "US")) == ["tax Tax 4.11"])
        #expect(Self.tax(rules, PartialAddress(state: "NY", postalCode: "10001", countryCode: "US")) == ["tax Tax 3.99"])
        #expect(Self.tax(rules, PartialAddress(state: "CA", postalCode: "95014-2083", countryCode: "US")) == ["tax Tax 4.11"])
    }

    @Test func aZipWhoseLeadingZerosASpreadsheetDroppedIsReadAsFiveDigits() throws {
        // 501 is 00501 (Holtsville): 45.00 × 8.625 % = 3.88125 → 3.88.
        #expect(Self.tax(try Self.zipRules(), PartialAddress(state: "NY", postalCode: "00501", countryCode: "US")) == ["tax Tax 3.88"])
    }

    @Test func aZipTheTableDoesNotListAndACountryOtherThanTheUSPayNoTableTax() throws {
        let rules = try Self.zipRules()
        #expect(Self.tax(rules, PartialAddress(state: "CA", postalCode: "94105", countryCode: "US")) == [])
        #expect(Self.tax(rules, PartialAddress(state: "ON", postalCode: "95014", countryCode: "CA")) == [])
    }

    @Test func explainSaysWhichRateTheZipHasAndFromWhichFile() throws {
        let rules = try Self.zipRules()
        let trace = rules.explain(Fixture.request(address: Fixture.cupertino)).trace
        #expect(trace.contains { $0.hasPrefix("tax layer us-zip: ZIP 95014 is 9.125% in ") && $0.hasSuffix("rates/zip-rates.csv") })
        let missing = rules.explain(Fixture.request(address: PartialAddress(state: "CA", postalCode: "94105", countryCode: "US"))).trace
        #expect(missing.contains { $0.hasPrefix("tax layer us-zip does not apply: no row for ZIP 94105 in ") })
    }

    @Test func aRateThatIsNotANumberNamesTheFileLineAndColumn() throws {
        let csv = Self.zipCSV.replacingOccurrences(of: "NEW YORK CITY,0.08875", with: "NEW YORK CITY,8.875%")
        let error = try #require(Self.loadError { try Self.folder(rules: Self.rules(layers: "    - { id: us-zip, zip_rates: rates/z.csv }"), files: ["rates/z.csv": csv]) })
        #expect(error.file.hasSuffix("/rates/z.csv"))
        #expect(error.description.hasSuffix("/rates/z.csv:3:24: EstimatedCombinedRate: expected a rate as a fraction like 0.0925 (9.25 %), found \"8.875%\""))
    }

    @Test func aZipWithTwoDifferentRatesIsRefusedNamingBothLines() throws {
        let csv = Self.zipCSV + "\nCA,95014,CUPERTINO,0.0925,0.06,0.0025,0,0.03,1\n"
        let error = try #require(Self.loadError { try Self.folder(rules: Self.rules(layers: "    - { id: us-zip, zip_rates: rates/z.csv }"), files: ["rates/z.csv": csv]) })
        #expect(error.line == 5)
        #expect(error.field == "ZipCode")
        #expect(error.message == "ZIP 95014 has two rates: 9.125% on line 2 and 9.25% here; keep one row per ZIP")
    }

    @Test func badZipsStatesHeadersAndPathsAreRefusedWithWhatToDo() throws {
        func error(_ csv: String, layer: String = "    - { id: us-zip, zip_rates: rates/z.csv }") -> String? {
            Self.loadError { try Self.folder(rules: Self.rules(layers: layer), files: ["rates/z.csv": csv]) }.map { error in
                String(error.description.split(separator: "/").last!)
            }
        }
        let head = "State,ZipCode,EstimatedCombinedRate\n"
        #expect(error(head + "CA,9501A,0.09\n") == "z.csv:2:4: ZipCode: expected a five-digit ZIP code like 95014, found \"9501A\"")
        #expect(error(head + "California,95014,0.09\n") == "z.csv:2:1: State: expected a two-letter state code like CA, found \"California\"")
        #expect(error(head + "CA,95014,1.5\n") == "z.csv:2:10: EstimatedCombinedRate: expected a rate from 0 % to 100 %, found \"1.5\"")
        #expect(error("State,Zip Code\nCA,95014\n") == #"z.csv:1:1: the header has no column "EstimatedCombinedRate"; found "State", "Zip Code""#)
        #expect(error(head + "CA,\"95014,0.09\n") == "z.csv:2:4: a quoted field is not closed before the end of the file")
        #expect(error(head, layer: "    - { id: us-zip, zip_rates: rates/missing.csv }")
                == "missing.csv (missing or not permitted); the path is relative to the rules file")
        #expect(error(head + "CA,95014,0.09\n", layer: "    - { id: us-zip, zip_rates: rates/z.csv, rate: 7.25% }")
                == "rules.yaml:8:51: tax.layers[0].rate: a layer with zip_rates takes its rate from the table's ZIP rows; remove rate")
    }

    @Test func aFortyThousandRowTableAnswersEveryZipItListsAndNoOther() throws {
        let table = try ZipRates(try CSVTable(bytes: Array(ZipRateSample.csv(rows: 40_000).utf8), file: "zips.csv"))
        #expect(table.rowCount == 40_000)
        let zips = ZipRateSample.zips(rows: 40_000)
        #expect(Set(zips).count == 40_000)
        var wrong = 0
        for (k, zip) in zips.enumerated() {
            let code = ZipRates.zip5(Int32(zip))
            if table.rate(postalCode: code) != ExactDecimal(significand: Int128(ZipRateSample.basisPoints(row: k)), scale: 2) { wrong += 1 }
        }
        #expect(wrong == 0)
        let listed = Set(zips)
        let unlisted = (0..<100_000).filter { !listed.contains($0) }
        #expect(unlisted.count == 60_000)
        #expect(unlisted.allSatisfy { table.rate(postalCode: ZipRates.zip5(Int32($0))) == nil })
        #expect(table.rate(postalCode: "9501") == nil)
        #expect(table.rate(postalCode: "M5V3L9") == nil)
    }

    @Test func theBenchsZipTableAddsOneUSLayerToUsAcme() throws {
        let rules = try Fixture.acme.adding(zipRateLayer: "zip-table", csv: Array(ZipRateSample.csv(rows: 40_000).utf8), fileName: "zips.csv")
        #expect(rules.version != Fixture.acme.version)
        #expect(rules.rateFiles == ["zips.csv"])
        // Cupertino: CA 7.25 % + Santa Clara 1.5 % + the table's 95014 row.
        let row = ZipRateSample.zips(rows: 40_000).firstIndex(of: 95014)!
        #expect(ZipRateSample.rate(row: row) == "0.1016")
        // 45.00 × (8.75 % + 10.16 %) = 8.5095 → 8.51.
        #expect(Self.tax(rules, Fixture.cupertino) == ["tax Tax 8.51"])
    }

    // MARK: The version

    @Test func theRulesVersionCoversTheTableAndChangesWithIt() throws {
        let path = try Self.folder(rules: Self.rules(layers: "    - { id: us-zip, zip_rates: rates/zip-rates.csv }"), files: ["rates/zip-rates.csv": Self.zipCSV])
        let first = try RuleSet.load(contentsOfFile: path)
        let again = try RuleSet.load(contentsOfFile: path)
        #expect(first.version == again.version)
        let yamlOnly = "sha256:" + SHA256.hex(of: Array(try String(contentsOfFile: path, encoding: .utf8).utf8))
        #expect(first.version != yamlOnly)
        #expect(first.rateFiles == [(path as NSString).deletingLastPathComponent + "/rates/zip-rates.csv"])
        try Self.zipCSV.replacingOccurrences(of: "0.09125", with: "0.09250")
            .write(toFile: first.rateFiles[0], atomically: true, encoding: .utf8)
        let changed = try RuleSet.load(contentsOfFile: path)
        #expect(changed.version != first.version)
        #expect(Self.tax(changed, Fixture.cupertino) == ["tax Tax 4.16"])   // 45.00 × 9.25 % = 4.1625
    }

    @Test func rulesWithoutTablesKeepTheirFilesDigestAsVersion() throws {
        #expect(Fixture.acme.version == "sha256:" + SHA256.hex(of: Array(try String(contentsOfFile: Fixture.examplePath("us-acme.yaml"), encoding: .utf8).utf8)))
        #expect(Fixture.acme.rateFiles == [])
    }
}
