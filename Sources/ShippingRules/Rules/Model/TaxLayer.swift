/// One taxing jurisdiction. Every layer whose zone holds the address applies (state + county
/// + city stack), each on the same base.
struct TaxLayer: Sendable {
    /// How the layer taxes the shipping charge: at its rate, not at all, or apportioned to the
    /// goods by value at each line's rate (`follow_goods`: HMRC's and the EU's rule for VAT).
    enum ShippingTreatment: String, Sendable, CaseIterable {
        case taxable, exempt
        case followGoods = "follow_goods"
    }

    /// A category's own rate, optionally only for units priced below a threshold
    /// (New York's clothing exemption under $110).
    struct CategoryRate: Sendable {
        var rate: ExactDecimal
        var whenUnitBelow: PriceAmount?
    }

    var id: String
    var label: String
    var zone: Zone
    /// Percent, e.g. 7.25.
    var rate: ExactDecimal
    var shipping: ShippingTreatment
    var categories: [String: CategoryRate]
    /// VAT/GST: the prices already contain this tax; the quote shows it but does not add it.
    var includedInPrices = false
    /// Where the layer is written, for `rules check` warnings.
    var mark = SourceMark(line: 1, column: 1)
    var field = ""
    /// A rate table whose rows give the rate by address (`zip_rates`, `import: woocommerce`):
    /// the quote replaces the layer with what the table says for the address (`RateTable`).
    var table: RateTable?
    /// The rate on the shipping charge when it differs from `rate` (a compound rate over taxes
    /// that do not all tax shipping); nil: `rate`.
    var shippingRate: ExactDecimal?

    /// The rate for one cart line.
    func rate(category: String?, unitAmount: Money) -> ExactDecimal {
        // Most layers have no categories: skip hashing the category name for them.
        guard let category, !categories.isEmpty, let special = categories[category] else { return rate }
        if let limit = special.whenUnitBelow, unitAmount >= limit.money(in: unitAmount.currency) { return rate }
        return special.rate
    }
}

/// How taxes are rounded and shown.
struct TaxPolicy: Sendable {
    enum Summary: String, Sendable, CaseIterable {
        case combined
        case perLayer = "per_layer"
        /// One line per tax rate, each rounded once (Japan's qualified invoice: 10 % and 8 % apart).
        case perRate = "per_rate"
    }

    var layers: [TaxLayer] = []
    /// True when a layer takes its rate from a rate table, resolved per address.
    var hasRateTables = false
    var summary: Summary = .combined
    /// The default of every layer's `included_in_prices`.
    var includedInPrices = false
}

/// Round each taxed line, the exact sum once, or the exact sum of each tax rate once (Japan's
/// qualified-invoice system: one rounding per rate on the invoice, 80.4 → 80 and 180.4 → 180).
enum RoundingLevel: String, Sendable, CaseIterable { case line, total, rate }

struct RoundingPolicy: Sendable {
    var mode: RoundingMode = .halfUp
    var level: RoundingLevel = .line
}
