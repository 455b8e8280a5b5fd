/// A shipping method as the merchant configures it; quoting turns it into a `ShippingMethod`.
struct ShippingMethodRule: Sendable {
    var id: String
    var label: String
    var detail: DetailTemplate?
    /// Nil: every serviceable address. Otherwise any zone holding the address makes it eligible.
    var zones: [Zone]?
    var conditions: [MethodCondition]
    var price: PriceRule
    var transitDays: ClosedRange<Int>?
    /// The method's own cutoff (minutes after local midnight), in place of the warehouse's: a
    /// courier collecting at 11:00 needs orders earlier than the parcel carrier does.
    var cutoffMinutes: Int?
    /// Where the method is written, for `rules check` warnings.
    var mark = SourceMark(line: 1, column: 1)
    var field = ""
}

/// What a method costs.
struct PriceRule: Sendable {
    enum Measure: String, Sendable, CaseIterable {
        case weightGrams = "weight_grams"
        case cartValue = "cart_value"
        case itemCount = "item_count"
    }

    struct Tier: Sendable {
        /// Inclusive upper bound in the measure's unit (grams, items, or an amount).
        var upTo: ExactDecimal
        var amount: PriceAmount
    }

    struct Surcharge: Sendable {
        var zone: Zone
        var amount: PriceAmount
        var label: String?
    }

    /// A handling fee for a shipping class: per unit of that class, or once when the cart holds any.
    struct ClassSurcharge: Sendable {
        enum Per: String, Sendable, CaseIterable { case item, cart }
        var shippingClass: String
        var amount: PriceAmount
        var per: Per
        var label: String?
    }

    var base: PriceAmount?
    var measure: Measure?
    /// With `by: weight_grams`: tiers compare the billable weight, each sized unit counting as at
    /// least its volume over this many mm³ per gram.
    var dimensionalDivisor: Int?
    var tiers: [Tier] = []
    /// The price beyond the last tier; without it a cart beyond the last tier is not offered this method.
    var above: PriceAmount?
    var perItem: PriceAmount?
    /// Cart value after discounts at or above which base, tiers and per-item fees fall to zero.
    var freeOver: PriceAmount?
    /// Added even when free_over applies: a remote-area cost is not waived by a promotion.
    var surcharges: [Surcharge] = []
    /// Added like `surcharges`, even when free_over applies: the carrier's handling cost stays.
    var classSurcharges: [ClassSurcharge] = []
}

/// An extra condition for offering a method (same-day before 3pm, small carts only, …).
enum MethodCondition: Sendable {
    /// Local warehouse time strictly before this minute of the day.
    case orderBefore(minutes: Int)
    case weekdays(Set<Int>)
    case cartValueAtLeast(PriceAmount)
    case cartValueBelow(PriceAmount)
    case maxWeightGrams(Int)
    case paymentMethodTypes(Set<String>)
    case triggers(Set<String>)
    /// Offered only when some item carries one of these shipping classes (freight for oversized goods).
    case classesIn(Set<String>)
    /// Offered only when no item carries any of these shipping classes (no air for batteries).
    case classesNotIn(Set<String>)
}
