/// Computes the tax lines of one method's breakdown: every layer whose zone holds the address
/// applies, on the discounted lines and on shipping when the layer taxes it. Tax is rounded at the
/// layers' combined rate, per line or once on the exact total as the rule set says, and a layer
/// shown on its own line gets its share of that (`LayerSplit`): rounding layer by layer overcharges.
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

        // Each layer's exact tax, and each layer's share of amounts rounded at the combined rate of
        // its kind (added, or contained in prices): per line and per shipping charge at line level,
        // once on the total at total level. The shares add up to what the customer is charged.
        var exact = [ExactSum](repeating: ExactSum(), count: matched.count)
        var rounded = [Int128](repeating: 0, count: matched.count)
        for contained in [false, true] {
            let kind = matched.indices.filter { matched[$0].includedInPrices == contained }
            guard !kind.isEmpty else { continue }
            // At rate level: each combined rate's layer shares, summed exactly, in order of first use.
            var byRate: [(rate: Int128, shares: [ExactSum])] = []
            /// One taxed amount: every layer of the kind on it, rounded once at their combined rate.
            func tax(_ base: Money, _ rate: (TaxLayer) -> ExactDecimal?, divisor: Int128) {
                var shares = [ExactSum](repeating: ExactSum(), count: kind.count)
                var combined: Int128 = 0
                var combinedRate: Int128 = 0
                for (k, l) in kind.enumerated() {
                    guard let r = rate(matched[l]) else { continue }
                    let n = Int128(base.minorUnits) * Self.scaled(r)
                    shares[k].add(n, over: divisor)
                    exact[l].add(shares[k])
                    combined += n
                    combinedRate += Self.scaled(r)
                }
                guard combinedRate != 0 else { return }
                switch rounding.level {
                case .line:
                    for (l, minor) in zip(kind, LayerSplit.split(rounding.mode.divide(combined, by: divisor), exact: shares)) {
                        rounded[l] += minor
                    }
                case .rate:
                    if let g = byRate.firstIndex(where: { $0.rate == combinedRate }) {
                        for k in kind.indices { byRate[g].shares[k].add(shares[k]) }
                    } else {
                        byRate.append((combinedRate, shares))
                    }
                case .total:
                    break
                }
            }
            for (i, line) in cart.taxableLines.enumerated() {
                tax(line.base, { $0.rate(category: line.category, unitAmount: line.unitAmount) },
                    divisor: contained ? lineDivisors[i] : Self.hundred)
            }
            tax(shipping, { $0.shipping == .taxable ? $0.rate : nil }, divisor: contained ? shippingDivisor : Self.hundred)
            if rounding.level == .total { byRate = [(0, kind.map { exact[$0] })] }
            for group in byRate {
                var total = ExactSum()
                for share in group.shares { total.add(share) }
                for (l, minor) in zip(kind, LayerSplit.split(total.rounded(rounding.mode), exact: group.shares)) {
                    rounded[l] += minor
                }
            }
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
            // The layers' shares were rounded together already: their sum is the one line.
            for contained in [false, true] {
                let indices = matched.indices.filter { matched[$0].includedInPrices == contained }
                guard !indices.isEmpty else { continue }
                let minor = indices.reduce(0) { $0 + rounded[$1] }
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
        var byRate: [(rate: Int128, exact: Int128)] = []
        // Each line, and the shipping charge, taxed at the layers' combined rate and rounded once.
        func tax(_ base: Money, _ rates: [ExactDecimal]) {
            let rate = rates.reduce(Int128(0)) { $0 + Self.scaled($1) }
            guard rate != 0 else { return }
            let n = Int128(base.minorUnits) * rate
            exactSum += n
            switch rounding.level {
            case .line: roundedSum += rounding.mode.divide(n, by: Self.hundred)
            case .rate:
                if let g = byRate.firstIndex(where: { $0.rate == rate }) { byRate[g].exact += n } else { byRate.append((rate, n)) }
            case .total: break
            }
        }
        for line in cart.taxableLines { tax(line.base, matched.map { $0.rate(category: line.category, unitAmount: line.unitAmount) }) }
        tax(shipping, matched.filter { $0.shipping == .taxable }.map(\.rate))
        let minor: Int128
        switch rounding.level {
        case .line: minor = roundedSum
        case .rate: minor = byRate.reduce(0) { $0 + rounding.mode.divide($1.exact, by: Self.hundred) }
        case .total: minor = rounding.mode.divide(exactSum, by: Self.hundred)
        }
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
