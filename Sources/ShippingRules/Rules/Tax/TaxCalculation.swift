/// Computes the tax lines of one method's breakdown: every layer whose zone holds the address
/// applies, on the discounted lines and on shipping when the layer taxes it; rounding per line
/// or once on the exact total, as the rule set says.
///
/// A layer `included_in_prices` (VAT, GST) is already inside the prices: on a gross amount G
/// whose contained rates add up to R, layer r holds `G × r / (100 + R)`. That tax is shown on a
/// zero-amount line whose label carries the figure, because the sheet's grand total must equal
/// the sum of the lines above it and the customer pays the prices as shown.
struct TaxCalculation {
    let policy: TaxPolicy
    let rounding: RoundingPolicy
    let labels: RuleSet.Labels

    /// Rates carry at most 6 decimals (checked at load), so every exact tax is `n / (100 × 10^6)`
    /// when added, or `n / ((100 + R) × 10^6)` when contained.
    private static let rateScale = 6
    private static let hundred: Int128 = 100 * 1_000_000

    struct Line: Sendable {
        var id: String
        var label: String
        var amount: Money
    }

    /// Added lines go into the sum; included lines are shown with a zero amount.
    struct Lines: Sendable {
        var added: [Line] = []
        var included: [Line] = []
    }

    private static func scaled(_ rate: ExactDecimal) -> Int128 {
        rate.significand * Power10.int128(rateScale - rate.scale)
    }

    func lines(cart: CartFacts, shipping: Money, layers matched: [TaxLayer], trace: inout Trace) -> Lines {
        guard !matched.isEmpty else { return Lines() }
        let currency = shipping.currency
        let inclusive = matched.contains(where: \.includedInPrices)
        if !inclusive && policy.summary == .combined { return combinedAdded(cart: cart, shipping: shipping, layers: matched, trace: &trace) }
        // Each line's divisor for contained tax: 100 % plus every contained rate on that line.
        var lineDivisors: [Int128] = []
        var shippingDivisor = Self.hundred
        if inclusive {
            lineDivisors = cart.taxableLines.map { line in
                matched.reduce(Self.hundred) { sum, layer in
                    layer.includedInPrices ? sum + Self.scaled(layer.rate(category: line.category, unitAmount: line.unitAmount)) : sum
                }
            }
            for layer in matched where layer.includedInPrices && layer.shipping == .taxable { shippingDivisor += Self.scaled(layer.rate) }
        }

        var rounded: [Int128] = []     // per layer, rounded the configured way
        var exact: [ExactSum] = []     // per layer, the exact sum
        for layer in matched {
            var roundedSum: Int128 = 0
            var exactSum = ExactSum()
            func add(_ base: Money, _ rate: ExactDecimal, _ divisor: Int128) {
                let n = Int128(base.minorUnits) * Self.scaled(rate)
                exactSum.add(n, over: divisor)
                roundedSum += rounding.mode.divide(n, by: divisor)
            }
            for (i, line) in cart.taxableLines.enumerated() {
                add(line.base, layer.rate(category: line.category, unitAmount: line.unitAmount),
                    layer.includedInPrices ? lineDivisors[i] : Self.hundred)
            }
            if layer.shipping == .taxable { add(shipping, layer.rate, layer.includedInPrices ? shippingDivisor : Self.hundred) }
            rounded.append(rounding.level == .line ? roundedSum : exactSum.rounded(rounding.mode))
            exact.append(exactSum)
        }

        func money(_ minor: Int128) -> Money { Money(minorUnits: Int64(minor), currency: currency) }
        var result = Lines()
        switch policy.summary {
        case .perLayer:
            for (layer, minor) in zip(matched, rounded) {
                if layer.includedInPrices {
                    trace.add("tax \(layer.id) \(layer.rate)% included in prices, \(rounding.mode.rawValue) per \(rounding.level.rawValue) → \(money(minor).decimalString) contained")
                    result.included.append(Line(id: "tax-included-\(layer.id)", label: includedLabel(layer.label, money(minor)), amount: .zero(currency)))
                } else {
                    trace.add("tax \(layer.id) \(layer.rate)% → \(money(minor).decimalString)")
                    result.added.append(Line(id: "tax-\(layer.id)", label: layer.label, amount: money(minor)))
                }
            }
        case .combined:
            // At total level the layers are summed exactly and rounded once: one rounding, one line.
            for contained in [false, true] {
                let indices = matched.indices.filter { matched[$0].includedInPrices == contained }
                guard !indices.isEmpty else { continue }
                let minor: Int128
                if rounding.level == .line {
                    minor = indices.reduce(0) { $0 + rounded[$1] }
                } else {
                    var sum = ExactSum()
                    for i in indices { sum.add(exact[i]) }
                    minor = sum.rounded(rounding.mode)
                }
                func names() -> String { indices.map { "\(matched[$0].id) \(matched[$0].rate)%" }.joined(separator: " + ") }
                if contained {
                    trace.add("tax \(names()) included in prices, \(rounding.mode.rawValue) per \(rounding.level.rawValue) → \(money(minor).decimalString) contained")
                    result.included.append(Line(id: "tax-included", label: includedLabel(labels.tax, money(minor)), amount: .zero(currency)))
                } else {
                    trace.add("tax \(names()), \(rounding.mode.rawValue) per \(rounding.level.rawValue) → \(money(minor).decimalString)")
                    result.added.append(Line(id: "tax", label: labels.tax, amount: money(minor)))
                }
            }
        }
        return result
    }

    /// The common case (added tax, one line) without the per-layer arrays: it runs for every
    /// method of every quote. Same sums as the general path: per line rounded, or exact then once.
    private func combinedAdded(cart: CartFacts, shipping: Money, layers matched: [TaxLayer], trace: inout Trace) -> Lines {
        var roundedSum: Int128 = 0
        var exactSum: Int128 = 0
        for layer in matched {
            for line in cart.taxableLines {
                let n = Int128(line.base.minorUnits) * Self.scaled(layer.rate(category: line.category, unitAmount: line.unitAmount))
                exactSum += n
                if rounding.level == .line { roundedSum += rounding.mode.divide(n, by: Self.hundred) }
            }
            if layer.shipping == .taxable {
                let n = Int128(shipping.minorUnits) * Self.scaled(layer.rate)
                exactSum += n
                if rounding.level == .line { roundedSum += rounding.mode.divide(n, by: Self.hundred) }
            }
        }
        let minor = rounding.level == .line ? roundedSum : rounding.mode.divide(exactSum, by: Self.hundred)
        let amount = Money(minorUnits: Int64(minor), currency: shipping.currency)
        trace.add("tax \(matched.map { "\($0.id) \($0.rate)%" }.joined(separator: " + ")), \(rounding.mode.rawValue) per \(rounding.level.rawValue) → \(amount.decimalString)")
        return Lines(added: [Line(id: "tax", label: labels.tax, amount: amount)])
    }

    private func includedLabel(_ label: String, _ amount: Money) -> String {
        labels.taxIncluded.replacing("{label}", with: label)
            .replacing("{currency}", with: amount.currency.code)
            .replacing("{amount}", with: amount.decimalString)
    }
}
