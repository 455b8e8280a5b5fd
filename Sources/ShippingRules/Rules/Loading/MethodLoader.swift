import Foundation

/// Reads one entry of `shipping_methods`.
struct MethodLoader {
    let zones: ZoneReader
    let amounts: AmountReader
    /// Whether the rules name a warehouse (transit days and order times are counted on its calendar).
    let hasWarehouse: Bool

    static let keys: Set<String> = ["id", "label", "detail", "zones", "countries", "states", "when", "price", "transit_days", "cutoff"]
    static let placeholders = ["{min}", "{max}", "{from}", "{to}"]

    /// Each part of the method (id, label, zones, transit days, detail, conditions, price) is read
    /// on its own, so that one run reports the errors of every part.
    func load(_ node: RulesNode) throws(RulesError) -> ShippingMethodRule {
        let m = try node.mapping("a shipping method like {id: standard, label: Standard shipping, price: {base: 5.00}}", keys: Self.keys)
        var failed = false
        func part<T>(_ body: () throws(RulesError) -> T) -> T? {
            let value = node.log.attempt(body)
            if value == nil { failed = true }
            return value
        }
        let id = part { () throws(RulesError) in try m.required("id", "a method id like standard").nonEmptyString("a method id like standard") }
        let label = part { () throws(RulesError) in
            try m.required("label", "the option name shown on the sheet").nonEmptyString("the option name shown on the sheet")
        }
        let served = part { () throws(RulesError) in try servedZones(m) } ?? nil
        let transit = part { () throws(RulesError) -> ClosedRange<Int>? in
            guard let n = m["transit_days"] else { return nil }
            let days = try transitDays(n)
            guard hasWarehouse else { throw n.error(.invalidValue, "transit days are counted on the warehouse calendar; add warehouse: {time_zone: …}") }
            return days
        }
        let cutoff = part { () throws(RulesError) -> Int? in
            guard let n = m["cutoff"] else { return nil }
            guard hasWarehouse else { throw n.error(.invalidValue, "a cutoff is warehouse time; add warehouse: {time_zone: …}") }
            return try n.timeOfDay()
        }
        let detail = part { () throws(RulesError) in try self.detail(m, transit: transit) } ?? nil
        let conditions = part { () throws(RulesError) in try m["when"].map { (n) throws(RulesError) in try self.conditions(n) } ?? [] }
        let price = part { () throws(RulesError) in try self.price(try m.required("price", "a price like {base: 5.00}")) }
        guard !failed, let id, let label, let transit, let cutoff, let conditions, let price else {
            var error = node.error(.invalidValue, "the method could not be read")
            error.followsEarlier = true
            throw error
        }
        return ShippingMethodRule(id: id, label: label, detail: detail.map { DetailTemplate($0, transit: transit) }, zones: served, conditions: conditions,
                                  price: price, transitDays: transit, cutoffMinutes: cutoff, mark: node.mark, field: node.path)
    }

    private func servedZones(_ m: RulesMapping) throws(RulesError) -> [Zone]? {
        if let list = m["zones"] {
            if let other = m["countries"] ?? m["states"] { throw other.error(.invalidValue, "give either zones or countries/states, not both") }
            return try list.list().map { (n) throws(RulesError) -> Zone in try zones.reference(n) }
        }
        guard m.has("countries") || m.has("states") else { return nil }
        var zone = Zone()
        zone.countries = try m["countries"].map { (n) throws(RulesError) in try n.countryCodes() }
        zone.states = try m["states"].map { (n) throws(RulesError) in try n.subdivisionCodes() }
        return [zone]
    }

    /// The detail text; `transit` is nil when transit_days failed to load (placeholders are then not judged).
    private func detail(_ m: RulesMapping, transit: ClosedRange<Int>??) throws(RulesError) -> String? {
        guard let n = m["detail"] else { return nil }
        let detail = try n.nonEmptyString("a description like \"Arrives in {min}-{max} business days\"")
        var rest = detail
        for p in Self.placeholders { rest = rest.replacingOccurrences(of: p, with: "") }
        if let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            throw n.error(.invalidValue, "unknown placeholder \(rest[open...close]); expected {min}, {max}, {from} or {to}")
        }
        if case .some(nil) = transit, Self.placeholders.contains(where: detail.contains) {
            throw n.error(.invalidValue, "placeholders {min}, {max}, {from}, {to} need transit_days on this method")
        }
        return detail
    }

    private func transitDays(_ node: RulesNode) throws(RulesError) -> ClosedRange<Int> {
        if case .scalar = node.node {
            let days = try node.int("a number of business days", in: 0...365)
            return days...days
        }
        let m = try node.mapping("{min: 3, max: 5}", keys: ["min", "max"])
        let low = try m.required("min", "a number of business days").int("a number of business days", in: 0...365)
        let highNode = try m.required("max", "a number of business days")
        let high = try highNode.int("a number of business days", in: 0...365)
        guard low <= high else { throw highNode.error(.invalidValue, "expected max ≥ min (\(low)), found \(high)") }
        return low...high
    }

    private func conditions(_ node: RulesNode) throws(RulesError) -> [MethodCondition] {
        let m = try node.mapping("conditions like {order_before: \"15:00\"}",
                                 keys: ["order_before", "weekdays", "cart_value_at_least", "cart_value_below",
                                        "max_weight_grams", "payment_method_types", "triggers", "classes_in", "classes_not_in"])
        var result: [MethodCondition] = []
        if let n = m["order_before"] {
            guard hasWarehouse else { throw n.error(.invalidValue, "order_before is warehouse time; add warehouse: {time_zone: …}") }
            result.append(.orderBefore(minutes: try n.timeOfDay()))
        }
        if let n = m["weekdays"] {
            guard hasWarehouse else { throw n.error(.invalidValue, "weekdays are warehouse days; add warehouse: {time_zone: …}") }
            result.append(.weekdays(try Weekday.set(n)))
        }
        if let n = m["cart_value_at_least"] { result.append(.cartValueAtLeast(try amounts.amount(n))) }
        if let n = m["cart_value_below"] { result.append(.cartValueBelow(try amounts.amount(n))) }
        if let n = m["max_weight_grams"] { result.append(.maxWeightGrams(try n.int("a weight in grams", in: 0...100_000_000))) }
        if let n = m["payment_method_types"] { result.append(.paymentMethodTypes(Set(try n.stringList("a wallet like APPLE_PAY")))) }
        if let n = m["triggers"] {
            var set: Set<String> = []
            for item in try n.list() { set.insert(try item.choice(QuoteTrigger.self).rawValue) }
            result.append(.triggers(set))
        }
        if let n = m["classes_in"] { result.append(.classesIn(try Self.classes(n))) }
        if let n = m["classes_not_in"] { result.append(.classesNotIn(try Self.classes(n))) }
        return result
    }

    /// A list of shipping classes as items carry them (`shipping_class`), like [battery].
    private static func classes(_ node: RulesNode) throws(RulesError) -> Set<String> {
        let what = "shipping classes like [battery, oversized]"
        let names = try node.stringList(what)
        guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty && $0.count <= CartItem.maxShippingClassLength }) else { throw node.expected(what) }
        return Set(names)
    }

    private func price(_ node: RulesNode) throws(RulesError) -> PriceRule {
        if case .scalar = node.node { return PriceRule(base: try amounts.amount(node)) }
        let m = try node.mapping("a price like {base: 5.00, free_over: 100.00}",
                                 keys: ["base", "free_over", "by", "tiers", "above", "per_item", "surcharges",
                                        "class_surcharges", "dimensional_divisor"])
        var rule = PriceRule()
        rule.base = try m["base"].map { (n) throws(RulesError) in try amounts.amount(n) }
        rule.freeOver = try m["free_over"].map { (n) throws(RulesError) in try amounts.amount(n) }
        rule.perItem = try m["per_item"].map { (n) throws(RulesError) in try amounts.amount(n) }
        rule.above = try m["above"].map { (n) throws(RulesError) in try amounts.amount(n) }
        if let by = m["by"] {
            rule.measure = try by.choice(PriceRule.Measure.self)
            let tiersNode = try m.required("tiers", "tiers like [{up_to: 1000, amount: 12.00}]")
            if let base = m["base"] { throw base.error(.invalidValue, "give either base or by/tiers, not both") }
            var previous: ExactDecimal?
            for entry in try tiersNode.list() {
                let t = try entry.mapping("a tier like {up_to: 1000, amount: 12.00}", keys: ["up_to", "amount"])
                let upNode = try t.required("up_to", "the tier's inclusive upper bound")
                let upTo = try upNode.decimal("a bound like 1000")
                if let previous, upTo <= previous { throw upNode.error(.invalidValue, "expected tiers in increasing order, found \(upTo) after \(previous)") }
                previous = upTo
                rule.tiers.append(.init(upTo: upTo, amount: try amounts.amount(try t.required("amount", "the tier's price"))))
            }
            guard !rule.tiers.isEmpty else { throw tiersNode.expected("at least one tier") }
        } else if let tiers = m["tiers"] {
            throw tiers.error(.missingKey, "tiers need by: weight_grams, cart_value or item_count")
        } else if let above = m["above"] {
            throw above.error(.invalidValue, "above is the price beyond the last tier; it needs by: and tiers:")
        }
        if let n = m["dimensional_divisor"] {
            guard rule.measure == .weightGrams else {
                throw n.error(.invalidValue, "dimensional_divisor sets the billable weight; it needs by: weight_grams")
            }
            rule.dimensionalDivisor = try n.int("mm³ per gram like 5000 (the carriers' 5000 cm³/kg)", in: 1...1_000_000_000)
        }
        if rule.base == nil && rule.measure == nil && rule.perItem == nil {
            throw node.error(.missingKey, "expected base, by/tiers or per_item in the price")
        }
        if let list = m["surcharges"] {
            for entry in try list.list() {
                let s = try entry.mapping("a surcharge like {zone: {country: US, states: [AK, HI]}, amount: 10.00}", keys: ["zone", "amount", "label"])
                rule.surcharges.append(.init(zone: try zones.reference(try s.required("zone", "a zone id or inline zone")),
                                             amount: try amounts.amount(try s.required("amount", "an amount")),
                                             label: try s["label"]?.nonEmptyString("a label")))
            }
        }
        if let list = m["class_surcharges"] {
            for entry in try list.list() {
                let s = try entry.mapping("a class surcharge like {class: oversized, amount: 15.00, per: item}",
                                          keys: ["class", "amount", "per", "label"])
                let classNode = try s.required("class", "a shipping class like oversized")
                let name = try classNode.nonEmptyString("a shipping class like oversized")
                guard name.count <= CartItem.maxShippingClassLength else {
                    throw classNode.expected("a shipping class of at most \(CartItem.maxShippingClassLength) characters")
                }
                rule.classSurcharges.append(.init(shippingClass: name,
                                                  amount: try amounts.amount(try s.required("amount", "an amount")),
                                                  per: try s.required("per", "item (each unit of the class) or cart (once)")
                                                      .choice(PriceRule.ClassSurcharge.Per.self),
                                                  label: try s["label"]?.nonEmptyString("a label")))
            }
        }
        return rule
    }
}

/// Lets `when: {triggers: [address_changed]}` read the trigger names: the sheet's two. The final
/// check is not among them, since it judges a method as the sheet's last address change did.
extension QuoteTrigger: CaseIterable {
    public static var allCases: [QuoteTrigger] { [.sheetOpened, .addressChanged] }
}
