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
    /// The rule set whose policy, rounding and labels apply, read where they lie: copied in, they
    /// were a retain and a release of each of their lists and texts for every tax computation.
    let ruleSet: RuleSet
    var policy: TaxPolicy { ruleSet.tax }
    var rounding: RoundingPolicy { ruleSet.rounding }
    var labels: RuleSet.Labels { ruleSet.labels }

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
        // Asked through the buffer, each layer where it lies: `contains(where:)` copied each one.
        let (inclusive, followsGoods) = matched.withUnsafeBufferPointer { layers in
            (layers.indices.contains { layers[$0].includedInPrices }, layers.indices.contains { layers[$0].shipping == .followGoods })
        }
        if !inclusive && !followsGoods && policy.summary == .combined {
            return combinedAdded(cart: cart, shipping: shipping, layers: matched, trace: &trace)
        }
        // Each layer's exact tax, and each layer's share of amounts rounded at the combined rate of
        // its kind (added, or contained in prices): per line and per shipping charge at line level,
        // once per rate or once on the total at those levels. The shares add up to what is charged.
        var exact = [ExactSum](repeating: ExactSum(), count: matched.count)
        var rounded = [Int128](repeating: 0, count: matched.count)
        // For summary per_rate (level rate): each rate's tax, rounded once, added and contained apart.
        var perRate: [(contained: Bool, rate: Int128, minor: Int128)] = []
        let goodsValue = cart.taxableLines.reduce(Int128(0)) { $0 + Int128($1.base.minorUnits) }
        for contained in [false, true] {
            let kind = matched.indices.filter { matched[$0].includedInPrices == contained }
            guard !kind.isEmpty else { continue }
            var byRate: [(rate: Int128, shares: [ExactSum])] = []

            /// The layers' shares of one taxed amount, `base / baseDivisor` minor units, at each
            /// layer's rate (nil: the layer does not tax it). Contained tax divides by 100 % plus
            /// every contained rate on the amount. Returns the shares and their combined rate.
            func shares(_ base: Int128, over baseDivisor: Int128 = 1, _ rate: (TaxLayer) -> ExactDecimal?) -> ([ExactSum], Int128) {
                let rates = kind.map { rate(matched[$0]).map(Self.scaled) }
                let combined = rates.reduce(Int128(0)) { $0 + ($1 ?? 0) }
                let divisor = (contained ? Self.hundred + combined : Self.hundred) * baseDivisor
                return (rates.map { r in
                    var share = ExactSum()
                    if let r { share.add(base * r, over: divisor) }
                    return share
                }, combined)
            }
            /// Charges one taxed amount: rounded once at its combined rate (line level) or gathered
            /// with the amounts of the same rate (rate level) or with everything (total level).
            func charge(_ shares: [ExactSum], rate: Int128) {
                guard rate != 0 else { return }
                for (k, l) in kind.enumerated() { exact[l].add(shares[k]) }
                switch rounding.level {
                case .line:
                    var sum = ExactSum()
                    shares.forEach { sum.add($0) }
                    for (l, minor) in zip(kind, LayerSplit.split(sum.rounded(rounding.mode), exact: shares)) { rounded[l] += minor }
                case .rate:
                    if let g = byRate.firstIndex(where: { $0.rate == rate }) {
                        for k in kind.indices { byRate[g].shares[k].add(shares[k]) }
                    } else {
                        byRate.append((rate, shares))
                    }
                case .total:
                    break
                }
            }

            for line in cart.taxableLines {
                let (s, r) = shares(Int128(line.base.minorUnits)) { $0.rate(category: line.category, unitAmount: line.unitAmount) }
                charge(s, rate: r)
            }
            // Shipping: taxable at the layer's rate, exempt, or following the goods: apportioned to
            // the lines by value and taxed at each line's rate (HMRC's and the EU's rule). With no
            // goods value to follow, it is taxed at the layer's rate.
            if followsGoods && goodsValue > 0 {
                var whole = [ExactSum](repeating: ExactSum(), count: kind.count)
                var wholeRate: Int128 = 0
                for line in cart.taxableLines where line.base.minorUnits != 0 {
                    let (s, r) = shares(Int128(shipping.minorUnits) * Int128(line.base.minorUnits), over: goodsValue) { layer in
                        switch layer.shipping {
                        case .taxable: layer.shippingRate ?? layer.rate
                        case .followGoods: layer.rate(category: line.category, unitAmount: line.unitAmount)
                        case .exempt: nil
                        }
                    }
                    if rounding.level == .rate {
                        charge(s, rate: r)
                    } else {
                        for k in kind.indices { whole[k].add(s[k]) }
                        wholeRate += r
                    }
                }
                if rounding.level != .rate { charge(whole, rate: wholeRate) }
            } else {
                let (s, r) = shares(Int128(shipping.minorUnits)) { $0.shipping == .exempt ? nil : ($0.shippingRate ?? $0.rate) }
                charge(s, rate: r)
            }
            if rounding.level == .total { byRate = [(0, kind.map { exact[$0] })] }
            for group in byRate {
                var total = ExactSum()
                group.shares.forEach { total.add($0) }
                let charged = total.rounded(rounding.mode)
                for (l, minor) in zip(kind, LayerSplit.split(charged, exact: group.shares)) { rounded[l] += minor }
                // A rate nothing was taxed at (free shipping in a food-only cart) gets no line.
                if !total.isZero { perRate.append((contained, group.rate, charged)) }
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
        case .perRate:
            // Highest rate first, as Japanese invoices list 10 % before the reduced 8 %. Without
            // {rate} in the included label, the rate goes into {label} so the lines stay apart.
            let rateInLabel = labels.taxIncluded.contains("{rate}")
            for group in perRate.sorted(by: { ($0.contained ? 1 : 0, -$0.rate) < ($1.contained ? 1 : 0, -$1.rate) }) {
                let rate = ExactDecimal(significand: group.rate, scale: Self.rateScale).description
                let amount = money(group.minor)
                if group.contained {
                    trace.add("tax at \(rate)% included in prices, \(rounding.mode.rawValue) once for the rate → \(amount.decimalString) contained")
                    result.included.append(Line(id: "tax-included-\(rate)", label: includedLabel(rateInLabel ? labels.tax : "\(labels.tax) \(rate)%", amount, rate: rate),
                                                amount: .zero(currency)))
                } else {
                    trace.add("tax at \(rate)%, \(rounding.mode.rawValue) once for the rate → \(amount.decimalString)")
                    result.added.append(Line(id: "tax-\(rate)", label: "\(labels.tax) \(rate)%", amount: amount))
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
        // The combined rate is summed in place: arrays of rates per line cost an allocation each.
        func tax(_ base: Money, rate: Int128) {
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
        // The layers are read through the buffer, in place: `for layer in matched` copied each
        // layer (a retain of every member) for every line of every method.
        matched.withUnsafeBufferPointer { layers in
            for line in cart.taxableLines {
                var rate: Int128 = 0
                for i in layers.indices { rate += Self.scaled(layers[i].rate(category: line.category, unitAmount: line.unitAmount)) }
                tax(line.base, rate: rate)
            }
            var shippingRate: Int128 = 0
            for i in layers.indices where layers[i].shipping == .taxable { shippingRate += Self.scaled(layers[i].shippingRate ?? layers[i].rate) }
            tax(shipping, rate: shippingRate)
        }
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

    private func includedLabel(_ label: String, _ amount: Money, rate: String = "") -> String {
        labels.taxIncluded.replacing("{label}", with: label)
            .replacing("{rate}", with: rate)
            .replacing("{currency}", with: amount.currency.code)
            .replacing("{amount}", with: amount.decimalString)
    }
}
