/// One cart line: `quantity` units of an item at `unitAmount` each.
public struct CartItem: Hashable, Sendable {
    /// The longest shipping class name, in characters.
    public static let maxShippingClassLength = 64

    public let id: String
    public let label: String
    public let quantity: Int
    public let unitAmount: Money
    public let taxCategory: String?
    public let weightGrams: Int?
    /// The merchant's handling class (`oversized`, `battery`): methods and surcharges may depend on it.
    public let shippingClass: String?
    /// One unit's outer size, for dimensional weight.
    public let dimensions: ItemDimensions?

    public init(id: String, label: String, quantity: Int, unitAmount: Money,
                taxCategory: String? = nil, weightGrams: Int? = nil,
                shippingClass: String? = nil, dimensions: ItemDimensions? = nil) {
        self.id = id
        self.label = label
        self.quantity = quantity
        self.unitAmount = unitAmount
        self.taxCategory = taxCategory
        self.weightGrams = weightGrams
        self.shippingClass = shippingClass
        self.dimensions = dimensions
    }

    public var lineAmount: Money { unitAmount * quantity }
}

/// A cart-level discount; its amount is zero or negative.
public struct Discount: Hashable, Sendable {
    public let id: String
    public let label: String
    public let amount: Money

    public init(id: String, label: String, amount: Money) {
        self.id = id
        self.label = label
        self.amount = amount
    }
}

/// What the customer is buying. With no items, `subtotal` stands for the whole cart.
public struct Cart: Hashable, Sendable {
    public static let maxLines = 100

    public let items: [CartItem]
    public let discounts: [Discount]
    public let subtotal: Money?

    public init(items: [CartItem] = [], discounts: [Discount] = [], subtotal: Money? = nil) {
        self.items = items
        self.discounts = discounts
        self.subtotal = subtotal
    }

    /// The items' sum, or the declared subtotal of an item-less cart.
    public func merchandiseTotal(in currency: Currency) -> Money {
        items.isEmpty ? (subtotal ?? .zero(currency)) : items.map(\.lineAmount).sum(in: currency)
    }

    public func discountTotal(in currency: Currency) -> Money { discounts.map(\.amount).sum(in: currency) }

    public var totalWeightGrams: Int { items.reduce(0) { $0 + ($1.weightGrams ?? 0) * $1.quantity } }
    public var itemCount: Int { items.reduce(0) { $0 + $1.quantity } }
}
