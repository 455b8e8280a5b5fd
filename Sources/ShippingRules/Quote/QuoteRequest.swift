import Foundation

/// Why a quote is asked for: the sheet opened with the customer's default address, the address
/// changed, or the customer authorized payment and the full address is known (the final check).
public enum QuoteTrigger: String, Sendable {
    case sheetOpened = "sheet_opened"
    case addressChanged = "address_changed"
    /// The final check before charging: exactly the selected method, priced at the full address.
    case paymentAuthorized = "payment_authorized"
}

/// Everything a rule set needs to quote one address. `now` is handed in by the caller, so the
/// rules never read a clock.
public struct QuoteRequest: Equatable, Sendable {
    public let merchant: String?
    public let paymentMethodType: String
    public let trigger: QuoteTrigger
    public let currency: Currency
    public let address: PartialAddress
    public let cart: Cart
    public let selectedShippingMethodID: String?
    public let now: Date

    public init(merchant: String? = nil, paymentMethodType: String = "APPLE_PAY", trigger: QuoteTrigger = .addressChanged,
                currency: Currency, address: PartialAddress, cart: Cart,
                selectedShippingMethodID: String? = nil, now: Date) {
        self.merchant = merchant
        self.paymentMethodType = paymentMethodType
        self.trigger = trigger
        self.currency = currency
        self.address = address
        self.cart = cart
        self.selectedShippingMethodID = selectedShippingMethodID
        self.now = now
    }
}
