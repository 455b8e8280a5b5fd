/// Prices a method for one cart and address.
extension PriceRule {
    /// The price, or nil when the cart is beyond the last tier and no `above` price is set.
    func price(for cart: CartFacts, zones: AddressZones, currency: Currency, trace: inout Trace) -> Money? {
        var core = Money.zero(currency)
        if let base { core = core + base.money(in: currency) }
        if let measure {
            let value: ExactDecimal
            switch measure {
            case .weightGrams:
                if let divisor = dimensionalDivisor {
                    let billable = cart.billableWeightGrams(divisor: divisor)
                    if billable != cart.weightGrams {
                        trace.add("dimensional weight: billable \(billable) g (actual \(cart.weightGrams) g, volume ÷ \(divisor))")
                    }
                    value = ExactDecimal(billable)
                } else {
                    value = ExactDecimal(cart.weightGrams)
                }
            case .itemCount: value = ExactDecimal(cart.itemCount)
            case .cartValue: value = cart.valueAfterDiscounts.exactValue
            }
            if let tier = tiers.firstIndex(where: { value <= $0.upTo }) {
                core = core + tiers[tier].amount.money(in: currency)
                trace.add("tier \(tier + 1) (\(measure.rawValue) \(value) ≤ \(tiers[tier].upTo))")
            } else if let above {
                core = core + above.money(in: currency)
                trace.add("above the last tier (\(measure.rawValue) \(value))")
            } else {
                trace.add("\(measure.rawValue) \(value) is beyond the last tier and no 'above' price is set")
                return nil
            }
        }
        if let perItem { core = core + perItem.money(in: currency) * cart.itemCount }
        if let freeOver, freeOver.isReached(by: cart.valueAfterDiscounts) {
            trace.add("free: cart value \(cart.valueAfterDiscounts.decimalString) ≥ free_over \(freeOver.money(in: currency).decimalString)")
            core = .zero(currency)
        }
        // Walked by index: `for … where` copies every element (its zone's members retained) before testing it.
        for i in surcharges.indices where zones.holds(number: surcharges[i].zone.number) ?? zones.hold(surcharges[i].zone) {
            // Its members read where they lie: the surcharge copied out was its zone copied too.
            let amount = surcharges[i].amount.money(in: currency)
            core = core + amount
            trace.add("surcharge \(surcharges[i].label ?? surcharges[i].zone.name) +\(amount.decimalString)")
        }
        // Most carts name no class: skip hashing the class names.
        for surcharge in cart.classUnits.isEmpty ? [] : classSurcharges {
            guard let units = cart.classUnits[surcharge.shippingClass] else { continue }
            let each = surcharge.amount.money(in: currency)
            // A merchant's fee times a hostile cart's million units must not trap the worker.
            let (minor, overflow) = each.minorUnits.multipliedReportingOverflow(by: surcharge.per == .item ? Int64(units) : 1)
            guard !overflow, minor <= Money.maxMinorUnits else {
                trace.add("class surcharge \(surcharge.label ?? surcharge.shippingClass) × \(units) is beyond the largest amount")
                return nil
            }
            let fee = Money(minorUnits: minor, currency: currency)
            core = core + fee
            let name = surcharge.label ?? surcharge.shippingClass
            trace.add(surcharge.per == .item ? "class surcharge \(name) +\(each.decimalString) × \(units) = +\(fee.decimalString)"
                                             : "class surcharge \(name) +\(fee.decimalString) once")
        }
        return core
    }
}
