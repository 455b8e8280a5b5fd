/// One line of a breakdown on the wallet sheet. The last line of a list is the grand total and
/// its label is the payee line.
public struct SummaryItem: Hashable, Sendable {
    public let id: String
    public let label: String
    public let amount: Money

    public init(id: String, label: String, amount: Money) {
        self.id = id
        self.label = label
        self.amount = amount
    }
}

/// A delivery window shown next to a shipping method; `from` is never after `to`.
public struct DeliveryEstimate: Hashable, Sendable {
    public var from: CalendarDate
    public var to: CalendarDate

    public init(from: CalendarDate, to: CalendarDate) {
        self.from = from
        self.to = to
    }
}

/// A shipping option on the sheet, with its own breakdown so that switching methods needs no call.
public struct ShippingMethod: Hashable, Sendable {
    public let id: String
    public let label: String
    public let detail: String?
    public let amount: Money
    public let deliveryEstimate: DeliveryEstimate?
    public let summaryItems: [SummaryItem]

    public init(id: String, label: String, detail: String? = nil, amount: Money,
                deliveryEstimate: DeliveryEstimate? = nil, summaryItems: [SummaryItem]) {
        self.id = id
        self.label = label
        self.detail = detail
        self.amount = amount
        self.deliveryEstimate = deliveryEstimate
        self.summaryItems = summaryItems
    }
}

/// Why an address cannot be served. The four named codes point at an address field on the sheet;
/// any other code is shown as a generic error.
public struct ShippingError: Hashable, Sendable {
    public let code: String
    /// Shown to the customer.
    public let message: String

    public static let cityNotSupported = "CITY_NOT_SUPPORTED"
    public static let stateNotSupported = "STATE_NOT_SUPPORTED"
    public static let countryNotSupported = "COUNTRY_NOT_SUPPORTED"
    public static let postalCodeInvalid = "POSTAL_CODE_INVALID"
    /// A final check's selected method is no longer offered at the full address.
    public static let shippingMethodUnavailable = "SHIPPING_METHOD_UNAVAILABLE"

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// The SDK's `YunoShippingUpdate`: what the app hands back to the wallet sheet.
public struct ShippingUpdate: Hashable, Sendable {
    public let summaryItems: [SummaryItem]
    public let shippingMethods: [ShippingMethod]
    public let errors: [ShippingError]

    public init(summaryItems: [SummaryItem] = [], shippingMethods: [ShippingMethod] = [], errors: [ShippingError] = []) {
        self.summaryItems = summaryItems
        self.shippingMethods = shippingMethods
        self.errors = errors
    }
}
