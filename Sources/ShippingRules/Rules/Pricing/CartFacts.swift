/// What the rules read from a cart, computed once per quote with overflow checks, so that
/// no later sum can trap the worker on a hostile cart.
struct CartFacts: Sendable {
    /// One taxable line: an item's amount after its share of the cart's discounts.
    struct TaxableLine: Sendable {
        var base: Money
        var unitAmount: Money
        var category: String?
    }

    let merchandise: Money
    /// The cart's discounts as charged: in order, each capped at the goods' value it still finds, so
    /// that discounts take the goods to zero and never below (shipping and its tax are still due).
    /// Zero ones are left out.
    let discounts: [Discount]
    /// The discounts as sent, where capping changed them: for the trace.
    let cappedFrom: [Money]
    let discountTotal: Money
    /// Merchandise after discounts, never below zero: what `free_over` and cart-value tiers compare.
    let valueAfterDiscounts: Money
    let weightGrams: Int
    let itemCount: Int
    /// Units per shipping class; empty when no item names one.
    let classUnits: [String: Int]
    /// The items that give their size, for dimensional weight; `weightGrams` counts them too.
    let sizedItems: [SizedItem]
    let taxableLines: [TaxableLine]

    struct SizedItem: Sendable {
        var gramsPerUnit: Int
        var volumePerUnit: Int64
        var quantity: Int
    }

    enum CartFactsError: Error {
        case currencyMismatch(String)
        case outOfRange(String)
    }

    /// `cart` is borrowed: taken by value out of the request, its two lists were copied through the
    /// runtime's generic witnesses, an atomic retain and release of each per quote.
    init(_ cart: borrowing Cart, currency: Currency) throws(CartFactsError) {
        let limit = Money.maxMinorUnits
        // `what` is built only on failure: this runs for every line of every quote.
        func check(_ m: Money, _ what: @autoclosure () -> String) throws(CartFactsError) {
            guard m.currency == currency else { throw .currencyMismatch("\(what()) is in \(m.currency.code), the session in \(currency.code)") }
            guard m.minorUnits.magnitude <= limit.magnitude else { throw .outOfRange("\(what()) is too large") }
        }
        var total: Int64 = 0
        var weight = 0
        var count = 0
        var lines: [TaxableLine] = []
        lines.reserveCapacity(cart.items.count)
        var classes: [String: Int] = [:]
        var sized: [SizedItem] = []
        // By index, each item read in place: `enumerated()` copied every item (a retain of each
        // of its strings) on every quote, and the list taken into a constant was a retain of it.
        for i in cart.items.indices {
            let unitAmount = cart.items[i].unitAmount, quantity = cart.items[i].quantity
            try check(unitAmount, "cart.items[\(i)].unit_amount")
            guard (1...1_000_000).contains(quantity) else { throw .outOfRange("cart.items[\(i)].quantity is outside 1…1000000") }
            let (line, overflow) = unitAmount.minorUnits.multipliedReportingOverflow(by: Int64(quantity))
            guard !overflow, line.magnitude <= limit.magnitude else { throw .outOfRange("cart.items[\(i)] amount is too large") }
            total += line
            guard total.magnitude <= limit.magnitude else { throw .outOfRange("the cart total is too large") }
            let grams = max(0, cart.items[i].weightGrams ?? 0)
            guard grams <= 100_000_000 else { throw .outOfRange("cart.items[\(i)].weight_grams is too large") }
            weight += grams * quantity
            count += quantity
            if let shippingClass = cart.items[i].shippingClass { classes[shippingClass, default: 0] += quantity }
            if let dimensions = cart.items[i].dimensions {
                guard let volume = dimensions.volume else { throw .outOfRange("cart.items[\(i)].dimensions_mm is too large") }
                sized.append(SizedItem(gramsPerUnit: grams, volumePerUnit: volume, quantity: quantity))
            }
            lines.append(TaxableLine(base: Money(minorUnits: line, currency: currency), unitAmount: unitAmount, category: cart.items[i].taxCategory))
        }
        if cart.items.isEmpty, let subtotal = cart.subtotal {
            try check(subtotal, "cart.subtotal")
            total = subtotal.minorUnits
            lines = [TaxableLine(base: subtotal, unitAmount: subtotal, category: nil)]
        }
        var discountSum: Int64 = 0
        for i in cart.discounts.indices {
            let amount = cart.discounts[i].amount
            try check(amount, "cart.discounts[\(i)].amount")
            discountSum += amount.minorUnits
            guard discountSum.magnitude <= limit.magnitude else { throw .outOfRange("the discounts are too large") }
        }
        merchandise = Money(minorUnits: total, currency: currency)
        if total + discountSum >= 0 {
            discounts = cart.discounts.contains(where: \.amount.isZero) ? cart.discounts.filter { !$0.amount.isZero } : cart.discounts
            cappedFrom = []
        } else {
            (discounts, cappedFrom) = CartFacts.cap(cart.discounts, at: max(0, total))
            discountSum = -max(0, total)
        }
        discountTotal = Money(minorUnits: discountSum, currency: currency)
        valueAfterDiscounts = Money(minorUnits: max(0, total + discountSum), currency: currency)
        weightGrams = weight
        itemCount = count
        classUnits = classes
        sizedItems = sized
        taxableLines = CartFacts.allocate(discount: discountSum, over: consume lines, total: total)
    }

    /// The weight a carrier bills when it charges by size: each sized unit counts as the larger of
    /// its weight and its volume over `divisor` (mm³ per gram, so 5000 is the carriers' 5000 cm³/kg),
    /// rounded up to the gram as carriers do and at most 100 t a unit; other units by their weight.
    func billableWeightGrams(divisor: Int) -> Int {
        var billable = weightGrams
        for item in sizedItems {
            let (whole, part) = item.volumePerUnit.quotientAndRemainder(dividingBy: Int64(divisor))
            let bySize = Int(min(whole + (part > 0 ? 1 : 0), 100_000_000))
            if bySize > item.gramsPerUnit { billable += (bySize - item.gramsPerUnit) * item.quantity }
        }
        return billable
    }

    /// Applies `discounts` in order to `goods` minor units: each takes at most what is left, and the
    /// ones that find nothing left drop out. Returns what is charged and what was sent for each cut.
    static func cap(_ discounts: [Discount], at goods: Int64) -> (charged: [Discount], cappedFrom: [Money]) {
        var left = goods
        var charged: [Discount] = []
        var cappedFrom: [Money] = []
        for discount in discounts where !discount.amount.isZero {
            let taken = min(-discount.amount.minorUnits, left)
            left -= taken
            if taken != -discount.amount.minorUnits { cappedFrom.append(discount.amount) }
            guard taken > 0 else { continue }
            charged.append(Discount(id: discount.id, label: discount.label,
                                    amount: Money(minorUnits: -taken, currency: discount.amount.currency)))
        }
        return (charged, cappedFrom)
    }

    /// Spreads the discounts over the lines in proportion to their amounts, exactly to the cent
    /// (largest remainders take the leftover cents, earlier lines first on ties), so that
    /// discounts lower each line's taxable base and the bases add up to the discounted cart.
    static func allocate(discount: Int64, over lines: consuming [TaxableLine], total: Int64) -> [TaxableLine] {
        guard discount != 0, total > 0 else { return lines }
        let reduction = Int128(min(-discount, total))      // a discount beyond the cart only zeroes it
        guard reduction > 0 else { return lines }
        // The lines are taken, not copied: changed in place, they need no second list per quote.
        var result = consume lines
        withUnsafeTemporaryAllocation(of: Int128.self, capacity: 2 * result.count) { buffer in
            // shares in the first half, remainders in the second.
            let n = result.count
            var left = reduction
            for i in result.indices {
                let base = max(0, result[i].base.minorUnits)
                // Whole cents fit an Int64 product nearly always; Int128 division is far slower.
                let (small, overflow) = Int64(reduction).multipliedReportingOverflow(by: base)
                if !overflow {
                    buffer[i] = Int128(small / total)
                    buffer[n + i] = Int128(small % total)
                } else {
                    let exact = reduction * Int128(base)
                    buffer[i] = exact / Int128(total)
                    buffer[n + i] = exact % Int128(total)
                }
                left -= buffer[i]
            }
            // The leftover cents (fewer than the lines) go to the largest remainders, earlier lines
            // first on ties: each round takes the first line holding the largest remainder not yet served.
            while left > 0 {
                var best = -1
                for i in 0..<n where buffer[n + i] >= 0 && (best < 0 || buffer[n + i] > buffer[n + best]) { best = i }
                guard best >= 0 else { break }
                buffer[best] += 1
                buffer[n + best] = -1
                left -= 1
            }
            for i in 0..<n where buffer[i] != 0 {
                result[i].base = Money(minorUnits: result[i].base.minorUnits - Int64(buffer[i]), currency: result[i].base.currency)
            }
        }
        return result
    }
}
