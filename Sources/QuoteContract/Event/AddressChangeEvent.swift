import Foundation
import ShippingRules

/// The input of docs/contract.md: a wallet sheet's customer picked or changed a shipping address.
/// The W3C `traceparent` travels as a Kafka header, not in here.
public struct AddressChangeEvent: Sendable, Hashable {
    /// The only contract version this code reads and writes.
    public static let currentVersion = 1

    public var version: Int { AddressChangeEvent.currentVersion }
    /// Echoed in the reply and in logs; not personal data.
    public var eventID: String?
    /// Equal to the Kafka message key.
    public var sessionID: String
    /// Strictly increasing per session, assigned by the gateway; ≥ 1.
    public var sequence: Int64
    /// Selects the rule set when a worker serves several.
    public var merchant: String?
    /// `APPLE_PAY`, `GOOGLE_PAY` or another wallet's name.
    public var paymentMethodType: String
    public var trigger: QuoteTrigger
    /// Every amount of the event is in this currency.
    public var currency: Currency
    public var shippingAddress: PartialAddress
    public var cart: Cart
    public var selectedShippingMethodID: String?
    /// The time at the gateway.
    public var occurredAt: Date
    /// A reply later than this is useless: the sheet is gone.
    public var replyBy: Date?

    public init(eventID: String? = nil, sessionID: String, sequence: Int64, merchant: String? = nil,
                paymentMethodType: String, trigger: QuoteTrigger, currency: Currency,
                shippingAddress: PartialAddress, cart: Cart, selectedShippingMethodID: String? = nil,
                occurredAt: Date, replyBy: Date? = nil) {
        self.eventID = eventID
        self.sessionID = sessionID
        self.sequence = sequence
        self.merchant = merchant
        self.paymentMethodType = paymentMethodType
        self.trigger = trigger
        self.currency = currency
        self.shippingAddress = shippingAddress
        self.cart = cart
        self.selectedShippingMethodID = selectedShippingMethodID
        self.occurredAt = occurredAt
        self.replyBy = replyBy
    }

    /// What the rules need from this event; `now` comes from the caller's clock.
    public func quoteRequest(now: Date) -> QuoteRequest {
        QuoteRequest(merchant: merchant, paymentMethodType: paymentMethodType, trigger: trigger, currency: currency,
                     address: shippingAddress, cart: cart, selectedShippingMethodID: selectedShippingMethodID, now: now)
    }
}

/// Bounds of the event beyond the contract's own (100 lines, 1 MiB). They keep every later sum and
/// product (line amounts, cart weight) far inside `Int64`, so no input can trap the rules.
public enum EventLimits {
    public static let maxBytes = JSONReader.defaultMaxBytes
    public static let maxDepth = JSONReader.defaultMaxDepth
    public static let maxSessionIDLength = 128
    public static let maxEventIDLength = 128
    public static let maxItems = Cart.maxLines
    public static let maxDiscounts = Cart.maxLines
    public static let maxQuantity: Int64 = 1_000_000
    /// Per unit: 1,000 tonnes.
    public static let maxWeightGrams: Int64 = 1_000_000_000
    /// Per side of a unit: 100 m, so that a unit's volume stays far inside `Int64`.
    public static let maxDimensionMillimetres = Int64(ItemDimensions.maxMillimetres)
    public static let maxShippingClassLength = CartItem.maxShippingClassLength
}
