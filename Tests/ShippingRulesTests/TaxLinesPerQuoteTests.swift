import Foundation
import Testing
@testable import ShippingRules

/// A quote works out its tax lines once for each shipping charge it meets (or once, when no layer
/// taxes shipping): every method still gets the tax of its own charge, and the trace still shows
/// each method's steps.
@Suite("Tax lines worked out once per shipping charge")
struct TaxLinesPerQuoteTests {
    private static let methods = """
        shipping_methods:
          - { id: ground, label: Ground, price: 5.00 }
          - { id: saver, label: Saver, price: 5.00 }
          - { id: air, label: Air, price: 12.50 }
          - { id: pickup, label: Pickup, price: 0 }
        """

    private func taxes(_ shipping: String) throws -> [String] {
        let rules = try Fixture.rules("""
            tax: { layers: [{ id: st, label: State tax, zone: { country: US }, rate: 10%, shipping: \(shipping) }] }
            \(Self.methods)
            """)
        let update = try #require(rules.quote(Fixture.request(cart: Fixture.cart("40.00"), selected: nil)).update)
        return update.shippingMethods.map { method in
            "\(method.id) " + method.summaryItems.filter { $0.id == "tax" }.map(\.amount.decimalString).joined()
                + " total " + (method.summaryItems.last?.amount.decimalString ?? "")
        }
    }

    @Test func aTaxedShippingChargeGivesEachMethodTheTaxOfItsOwnCharge() throws {
        #expect(try taxes("taxable") == ["ground 4.50 total 49.50", "saver 4.50 total 49.50",
                                         "air 5.25 total 57.75", "pickup 4.00 total 44.00"])
    }

    @Test func anExemptShippingChargeGivesEveryMethodTheGoodsTaxAlone() throws {
        #expect(try taxes("exempt") == ["ground 4.00 total 49.00", "saver 4.00 total 49.00",
                                        "air 4.00 total 56.50", "pickup 4.00 total 44.00"])
    }

    @Test func theTraceStillShowsTheTaxOfEveryMethod() throws {
        let rules = try Fixture.rules("""
            tax: { layers: [{ id: st, label: State tax, zone: { country: US }, rate: 10%, shipping: taxable }] }
            \(Self.methods)
            """)
        let explained = rules.explain(Fixture.request(cart: Fixture.cart("40.00"), selected: nil))
        let taxLines = explained.trace.filter { $0.hasPrefix("method ") && $0.contains(" tax st ") }
        #expect(taxLines.count == 4)
        #expect(taxLines.map { $0.components(separatedBy: " → ").last ?? "" } == ["4.50", "4.50", "5.25", "4.00"])
    }
}
