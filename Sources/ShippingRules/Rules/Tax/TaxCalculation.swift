/// Computes the tax lines of one method's breakdown: every layer whose zone holds the address
/// applies, on the discounted lines and on shipping when the layer taxes it; rounding per line
/// or once on the exact total, as the rule set says.
struct TaxCalculation {
    let policy: TaxPolicy
    let rounding: RoundingPolicy
    let label: String

    /// Rates carry at most 6 decimals (checked at load), so every exact tax is `n / (100 × 10^6)`.
    private static let rateScale = 6
    private static let denominator: Int128 = 100 * 1_000_000

    struct Line: Sendable {
        var id: String
        var label: String
        var amount: Money
    }

    func lines(cart: CartFacts, shipping: Money, layers matched: [TaxLayer], trace: inout Trace) -> [Line] {
        guard !matched.isEmpty else { return [] }
        let currency = shipping.currency
        var rounded: [Int128] = []     // per layer, rounded the configured way
        var exact: [Int128] = []       // per layer, numerators over `denominator`
        for layer in matched {
            var roundedSum: Int128 = 0
            var exactSum: Int128 = 0
            func add(_ base: Money, _ rate: ExactDecimal) {
                let n = Int128(base.minorUnits) * rate.significand * Power10.int128(Self.rateScale - rate.scale)
                exactSum += n
                roundedSum += rounding.mode.divide(n, by: Self.denominator)
            }
            for line in cart.taxableLines { add(line.base, layer.rate(category: line.category, unitAmount: line.unitAmount)) }
            if layer.shipping == .taxable { add(shipping, layer.rate) }
            rounded.append(rounding.level == .line ? roundedSum : rounding.mode.divide(exactSum, by: Self.denominator))
            exact.append(exactSum)
        }
        switch policy.summary {
        case .perLayer:
            return zip(matched, rounded).map { layer, minor in
                trace.add("tax \(layer.id) \(layer.rate)% → \(Money(minorUnits: Int64(minor), currency: currency).decimalString)")
                return Line(id: "tax-\(layer.id)", label: layer.label, amount: Money(minorUnits: Int64(minor), currency: currency))
            }
        case .combined:
            // At total level the layers are summed exactly and rounded once: one rounding, one line.
            let minor = rounding.level == .line ? rounded.reduce(0, +)
                                                : rounding.mode.divide(exact.reduce(0, +), by: Self.denominator)
            trace.add("tax \(matched.map { "\($0.id) \($0.rate)%" }.joined(separator: " + ")), \(rounding.mode.rawValue) per \(rounding.level.rawValue)"
                         + " → \(Money(minorUnits: Int64(minor), currency: currency).decimalString)")
            return [Line(id: "tax", label: label, amount: Money(minorUnits: Int64(minor), currency: currency))]
        }
    }
}
