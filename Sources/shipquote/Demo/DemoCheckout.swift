import Foundation
import QuoteContract
import ShippingRules

/// The scripted checkout the demo plays: one customer, one cart, the addresses they try.
struct DemoCheckout {
    let sessionID = "demo-" + UUID().uuidString.lowercased()
    let cart: Cart

    init() {
        let usd = Currency.usd
        cart = Cart(
            items: [
                CartItem(id: "sku-1", label: "T-shirt", quantity: 2, unitAmount: Money(minorUnits: 2500, currency: usd),
                         taxCategory: "apparel", weightGrams: 300),
                CartItem(id: "sku-2", label: "Mug", quantity: 1, unitAmount: Money(minorUnits: 1200, currency: usd),
                         weightGrams: 450),
            ],
            discounts: [Discount(id: "promo", label: "Promo", amount: Money(minorUnits: -500, currency: usd))])
    }

    func event(_ sequence: Int64, _ trigger: QuoteTrigger, _ address: PartialAddress, selected: String? = nil) -> AddressChangeEvent {
        let now = Date()
        return AddressChangeEvent(
            eventID: "evt-\(sequence)-\(sessionID.suffix(8))", sessionID: sessionID, sequence: sequence, merchant: "acme",
            paymentMethodType: "APPLE_PAY", trigger: trigger, currency: .usd, shippingAddress: address, cart: cart,
            selectedShippingMethodID: selected, occurredAt: now, replyBy: now.addingTimeInterval(25))
    }

    /// An event whose cart has an amount finer than a cent: the worker must refuse it.
    func malformed(_ sequence: Int64) -> [UInt8] {
        var text = String(decoding: event(sequence, .addressChanged, PartialAddress(city: "Austin", state: "TX", postalCode: "78701", countryCode: "US")).encode(), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"25.00\"", with: "\"25.005\"")
        return Array(text.utf8)
    }

    static func describe(_ a: PartialAddress) -> String {
        [a.city, a.state, a.postalCode, a.countryCode].map { $0 ?? "–" }.joined(separator: ", ")
    }
}
