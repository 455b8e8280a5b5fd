import Foundation
@testable import ShippingRules

/// Builders shared by the tests: amounts from text, instants from RFC 3339, requests with the
/// the contract's example's cart, and breakdowns rendered as `id label amount` strings.
enum Fixture {
    static func usd(_ text: String) -> Money { try! Money(parsing: text, currency: .usd) }

    static func instant(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)!
    }

    static func date(_ text: String) -> CalendarDate { CalendarDate(iso: text)! }

    /// The contract's example: 2 × T-shirt 25.00, promo -5.00.
    static let contractCart = Cart(
        items: [CartItem(id: "sku-1", label: "T-shirt", quantity: 2, unitAmount: usd("25.00"), taxCategory: "apparel", weightGrams: 300)],
        discounts: [Discount(id: "promo", label: "Promo", amount: usd("-5.00"))])

    static let cupertino = PartialAddress(city: "Cupertino", state: "CA", postalCode: "95014", countryCode: "US")

    static func request(address: PartialAddress = cupertino, cart: Cart = contractCart, selected: String? = "standard",
                        trigger: QuoteTrigger = .addressChanged, currency: Currency = .usd,
                        at now: String = "2026-10-10T12:00:00Z") -> QuoteRequest {
        QuoteRequest(merchant: "acme", trigger: trigger, currency: currency, address: address, cart: cart,
                     selectedShippingMethodID: selected, now: instant(now))
    }

    static func cart(_ amounts: String..., discount: String? = nil) -> Cart {
        Cart(items: amounts.enumerated().map { CartItem(id: "sku-\($0)", label: "Item \($0)", quantity: 1, unitAmount: usd($1)) },
             discounts: discount.map { [Discount(id: "promo", label: "Promo", amount: usd($0))] } ?? [])
    }

    /// The repository's example rules (the test file sits in Tests/ShippingRulesTests).
    static func examplePath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/rules/\(name)").path
    }

    static let acme: RuleSet = try! RuleSet.load(contentsOfFile: examplePath("us-acme.yaml"))

    /// The error loading `yaml` (as `rules.yaml`) gives, or nil when it loads.
    static func loadError(_ yaml: String) -> RulesError? {
        do { _ = try RuleSet.load(yaml: yaml, fileName: "rules.yaml"); return nil } catch { return error }
    }

    /// A minimal valid rule set around `body` (which must hold shipping_methods).
    static func rules(_ body: String, head: String = "version: 1\npayee: Shop\ncurrencies: [USD]\n") throws(RulesError) -> RuleSet {
        try RuleSet.load(yaml: head + body, fileName: "rules.yaml")
    }
}

extension QuoteOutcome {
    var update: ShippingUpdate? {
        if case .update(let u) = self { return u }
        return nil
    }

    var errorCodes: [String] {
        if case .unserviceable(let errors) = self { return errors.map(\.code) }
        return []
    }
}

extension Array where Element == SummaryItem {
    /// `["subtotal Subtotal 50.00", …]`: compares a whole breakdown in one assertion.
    var lines: [String] { map { "\($0.id) \($0.label) \($0.amount.decimalString)" } }
}

/// The request and cart types hold constants (their initializers then make a value without a
/// copy); the tests change one field by making a new value.
extension QuoteRequest {
    func with(merchant: String?) -> QuoteRequest {
        QuoteRequest(merchant: merchant, paymentMethodType: paymentMethodType, trigger: trigger, currency: currency, address: address,
                     cart: cart, selectedShippingMethodID: selectedShippingMethodID, now: now)
    }

    func with(cart: Cart) -> QuoteRequest {
        QuoteRequest(merchant: merchant, paymentMethodType: paymentMethodType, trigger: trigger, currency: currency, address: address,
                     cart: cart, selectedShippingMethodID: selectedShippingMethodID, now: now)
    }
}

extension Cart {
    func with(items: [CartItem]) -> Cart { Cart(items: items, discounts: discounts, subtotal: subtotal) }
}
