import Foundation

/// Why the sheet calls: it opened with the customer's default address, or the address changed.
public enum QuoteTrigger: String, Sendable {
    case sheetOpened = "sheet_opened"
    case addressChanged = "address_changed"
}

/// Everything a rule set needs to quote one address. `now` is handed in by the caller, so the
/// rules never read a clock.
public struct QuoteRequest: Sendable {
    public var merchant: String?
    public var paymentMethodType: String
    public var trigger: QuoteTrigger
    public var currency: Currency
    public var address: PartialAddress
    public var cart: Cart
    public var selectedShippingMethodID: String?
    public var now: Date

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
