import Foundation
import Testing
@testable import ShippingRules

/// WooCommerce's tax-rate export as WooCommerce applies it: of the rows that hold the address
/// (country, state, postcodes with `*` and `from...to`, cities), the first of each priority per
/// tax class, compound rows on top of the class's other taxes, shipping where the row says.
@Suite struct WooCommerceRatesTests {
    static let csv = """
        Country code,State code,Postcode / ZIP,City,Rate %,Tax name,Priority,Compound,Shipping,Tax class
        US,CA,95014;95015,Cupertino,9.1250,CA Cupertino,1,0,0,
        US,CA,950*,,8.2500,CA 950,1,0,0,
        US,CA,90210...90299,,9.5000,CA Beverly Hills,1,0,1,
        US,CA,*,*,7.2500,CA,1,0,0,
        CA,QC,,,5.0000,GST,1,0,1,
        CA,QC,,,9.9750,QST,2,1,1,
        CA,ON,,,13.0000,HST,1,0,1,
        GB,,,,20.0000,VAT,1,0,1,
        GB,,,,5.0000,VAT reduced,1,0,1,reduced-rate
        GB,,,,0.0000,VAT zero,1,0,1,zero-rate
        """

    static func rules(_ csv: String = csv, summary: String = "per_layer", layer: String = "{ id: woo, import: woocommerce, file: rates/woo.csv }") throws -> RuleSet {
        try RuleSet.load(contentsOfFile: try RateTableTests.folder(rules: RateTableTests.rules(layers: "    - \(layer)", summary: summary),
                                                                   files: ["rates/woo.csv": csv]))
    }

    static func tax(_ rules: RuleSet, _ country: String, _ state: String?, _ postcode: String?, city: String? = nil,
                    cart: Cart = Fixture.contractCart) -> [String] {
        RateTableTests.tax(rules, PartialAddress(city: city, state: state, postalCode: postcode, countryCode: country), cart: cart)
    }

    @Test func anExactPostcodeWithItsCityIsTheFirstRowOfItsPriorityAndTheOthersDoNotAdd() throws {
        // 45.00 × 9.125 % = 4.10625 → 4.11: not 9.125 + 8.25 + 7.25, one rate per priority.
        #expect(Self.tax(try Self.rules(), "US", "CA", "95014", city: "Cupertino") == ["tax-woo-1 CA Cupertino 4.11"])
        #expect(Self.tax(try Self.rules(), "US", "CA", "95014-2083", city: "cupertino") == ["tax-woo-1 CA Cupertino 4.11"])
    }

    @Test func aCityTheRowDoesNotListFallsToTheWildcardRow() throws {
        // 95014 in Los Altos: the Cupertino row needs its city; 950* holds it: 45.00 × 8.25 % = 3.7125 → 3.71.
        #expect(Self.tax(try Self.rules(), "US", "CA", "95014", city: "Los Altos") == ["tax-woo-1 CA 950 3.71"])
        #expect(Self.tax(try Self.rules(), "US", "CA", "95020", city: "Gilroy") == ["tax-woo-1 CA 950 3.71"])
    }

    @Test func aRangeRowTaxesItsZipsAndShippingWhereItsShippingFlagIsOne() throws {
        // 90210: 45.00 × 9.5 % = 4.275 → 4.28, shipping 5.00 × 9.5 % = 0.475 → 0.48.
        #expect(Self.tax(try Self.rules(), "US", "CA", "90210") == ["tax-woo-1 CA Beverly Hills 4.76"])
        // 94105 matches no postcode row: the state's row with * for postcode and city: 45.00 × 7.25 % = 3.2625 → 3.26.
        #expect(Self.tax(try Self.rules(), "US", "CA", "94105", city: "San Francisco") == ["tax-woo-1 CA 3.26"])
    }

    @Test func aCompoundRowIsChargedOnTheGoodsPlusTheOtherTaxes() throws {
        // GST 5 %, QST 9.975 % compound: 9.975 × 1.05 = 10.47375 %. Goods 45.00: 2.25 + 4.7131875 = 6.9631875 → 6.96,
        // split 2.25 + 4.71; shipping 5.00: 0.25 + 0.5236875 = 0.7736875 → 0.77, split 0.25 + 0.52.
        #expect(Self.tax(try Self.rules(), "CA", "QC", "H2X 1Y4", city: "Montréal") == ["tax-woo-1 GST 2.50", "tax-woo-2 QST 5.23"])
        #expect(Self.tax(try Self.rules(summary: "combined"), "CA", "QC", "H2X 1Y4") == ["tax Tax 7.73"])
        #expect(Self.tax(try Self.rules(), "CA", "ON", "M5V 3L9") == ["tax-woo-1 HST 6.50"])   // 50.00 × 13 %
    }

    @Test func aCompoundRowOverARateThatExemptsShippingTaxesShippingOnTheRatesThatTaxIt() throws {
        let csv = """
            Country code,State code,Postcode / ZIP,City,Rate %,Tax name,Priority,Compound,Shipping,Tax class
            CA,QC,,,5,GST,1,0,0,
            CA,QC,,,10,QST,2,1,1,
            """
        // Goods 45.00: 2.25 + 45.00 × 10.5 % = 4.725 → 6.975 → 6.98 (2.25 + 4.73); shipping 5.00: GST exempt, QST 10 % on 5.00 = 0.50.
        #expect(Self.tax(try Self.rules(csv), "CA", "QC", "H2X1Y4") == ["tax-woo-1 GST 2.25", "tax-woo-2 QST 5.23"])
    }

    @Test func taxClassesAreCartCategoriesAndShippingFollowsTheStandardRow() throws {
        let pound = { (text: String) in try! Money(parsing: text, currency: .usd) }
        let cart = Cart(items: [CartItem(id: "a", label: "Tea", quantity: 1, unitAmount: pound("10.00"), taxCategory: "reduced-rate"),
                                CartItem(id: "b", label: "Cup", quantity: 1, unitAmount: pound("10.00")),
                                CartItem(id: "c", label: "Book", quantity: 1, unitAmount: pound("10.00"), taxCategory: "zero-rate")])
        // 10.00 × 5 % + 10.00 × 20 % + 0 + shipping 5.00 × 20 % = 0.50 + 2.00 + 1.00.
        #expect(Self.tax(try Self.rules(), "GB", nil, "SW1A 1AA", cart: cart) == ["tax-woo-1 VAT 3.50"])
    }

    @Test func anAddressNoRowHoldsPaysNoImportedTax() throws {
        #expect(Self.tax(try Self.rules(), "DE", "BY", "80331") == [])
        #expect(Self.tax(try Self.rules(), "US", "NY", "10001") == [])
    }

    @Test func explainListsTheRowsThatApplyWithTheirLines() throws {
        let trace = try Self.rules().explain(Fixture.request(address: PartialAddress(state: "QC", postalCode: "H2X1Y4", countryCode: "CA"))).trace
        #expect(trace.contains("tax layer woo-1: GST 5% (line 6)"))
        #expect(trace.contains("tax layer woo-2: QST 9.975% compound (line 7)"))
    }

    @Test func badCellsNameTheFileLineColumnAndField() throws {
        func error(_ row: String) -> String? {
            let head = "Country code,State code,Postcode / ZIP,City,Rate %,Tax name,Priority,Compound,Shipping,Tax class\n"
            return RateTableTests.loadError {
                try RateTableTests.folder(rules: RateTableTests.rules(layers: "    - { id: woo, import: woocommerce, file: rates/woo.csv }"),
                                          files: ["rates/woo.csv": head + row + "\n"])
            }.map { error in String(error.description[error.description.range(of: "woo.csv")!.lowerBound...]) }
        }
        #expect(error("US,CA,9*14,,7.25,CA,1,0,0,") == "woo.csv:2:7: Postcode / ZIP: a wildcard * ends a postcode prefix, like 950*; found \"9*14\"")
        #expect(error("US,CA,90299...90210,,7.25,CA,1,0,0,")
                == "woo.csv:2:7: Postcode / ZIP: expected a range of numeric postcodes of equal length, low first, like 90210...90299, found \"90299...90210\"")
        #expect(error("US,CA,,,seven,CA,1,0,0,") == "woo.csv:2:9: Rate %: expected a rate in percent like 7.25, found \"seven\"")
        #expect(error("US,CA,,,7.25,CA,1,yes,0,") == "woo.csv:2:19: Compound: expected 1 or 0, found \"yes\"")
        #expect(error("US,CA,,,7.25,CA,first,0,0,") == "woo.csv:2:17: Priority: expected a priority like 1 (a whole number), found \"first\"")
        #expect(error("USA,CA,,,7.25,CA,1,0,0,") == "woo.csv:2:1: Country code: expected a two-letter country code like US, or empty for any country, found \"USA\"")
        #expect(error("US,CA,,,7.1234,CA,1,0,0,\nUS,CA,,,1.25,District,2,1,0,")
                == "woo.csv:3:9: Rate %: a compound rate of 2 decimals on rates of 4 decimals needs more than 6 decimals once compounded; write rates with fewer decimals")
    }

    @Test func anImportTakesItsRatesFromTheRowsAndRefusesKeysThatWouldContradictThem() throws {
        let error = RateTableTests.loadError {
            try RateTableTests.folder(rules: RateTableTests.rules(layers: "    - { id: woo, import: woocommerce, file: rates/woo.csv, rate: 5% }"),
                                      files: ["rates/woo.csv": Self.csv])
        }
        #expect(error.map { String($0.description.split(separator: "/").last!) } == "rules.yaml:8:66: tax.layers[0].rate: an imported table's rows give rate; remove rate")
        let unknown = RateTableTests.loadError {
            try RateTableTests.folder(rules: RateTableTests.rules(layers: "    - { id: woo, import: prestashop, file: rates/woo.csv }"),
                                      files: ["rates/woo.csv": Self.csv])
        }
        #expect(unknown.map { String($0.description.split(separator: "/").last!) } == "rules.yaml:8:26: tax.layers[0].import: expected woocommerce (the only import so far), found \"prestashop\"")
    }

    @Test func rowsAreFiledByCountryAndPostcodeSoAQuoteVisitsOnlyThoseThatCanMatch() throws {
        // 40,000 exact ZIP rows: one ZIP's rows are found by lookup; the answer is the row's.
        var csv = "Country code,State code,Postcode / ZIP,City,Rate %,Tax name,Priority,Compound,Shipping,Tax class\n"
        for zip in ZipRateSample.zips(rows: 40_000) { csv += "US,,\(ZipRates.zip5(Int32(zip))),,\(zip % 5 + 6).25,Z\(zip),1,0,0,\n" }
        let table = try WooCommerceRates(try CSVTable(bytes: Array(csv.utf8), file: "woo.csv"))
        #expect(table.rates.count == 40_000)
        let rows = table.matching(country: "US", state: "CA", city: nil, postalCode: "95014")
        #expect(rows.map(\.name) == ["Z95014"])
        #expect(rows.map(\.rate) == [ExactDecimal(significand: 1025, scale: 2)])
        #expect(table.matching(country: "US", state: "CA", city: nil, postalCode: "95013").isEmpty)
    }
}
