import Foundation

extension RuleSet {
    /// The answer for one request: pure, deterministic, never traps on input.
    public func quote(_ request: QuoteRequest) -> QuoteOutcome {
        var trace = Trace(enabled: false)
        return answer(request, trace: &trace)
    }

    /// The answer and the steps that produced it.
    public func explain(_ request: QuoteRequest) -> QuoteExplanation {
        var trace = Trace(enabled: true)
        trace.add("rules \(fileName) \(version)")
        let result = answer(request, trace: &trace)
        return QuoteExplanation(result: result, trace: trace.lines)
    }

    private func answer(_ request: QuoteRequest, trace: inout Trace) -> QuoteOutcome {
        let currency = request.currency
        guard currencies.contains(currency) else {
            trace.add("currency \(currency.code) is not priced (rules price \(currencies.map(\.code).joined(separator: ", ")))")
            return .rejected(QuoteRejection(code: "CURRENCY_NOT_PRICED",
                                            message: "the rules price \(currencies.map(\.code).joined(separator: ", ")), not \(currency.code)"))
        }
        let cart: CartFacts
        do { cart = try CartFacts(request.cart, currency: currency) } catch {
            switch error {
            case .currencyMismatch(let why):
                trace.add(why)
                return .rejected(QuoteRejection(code: "CURRENCY_MISMATCH", message: why))
            case .outOfRange(let why):
                trace.add(why)
                return .rejected(QuoteRejection(code: "AMOUNT_OUT_OF_RANGE", message: why))
            }
        }
        if !cart.cappedFrom.isEmpty, trace.enabled {
            trace.add("discounts \(cart.cappedFrom.map(\.decimalString).joined(separator: ", ")) capped at the goods' value \(cart.merchandise.decimalString): charged \(cart.discountTotal.decimalString)")
        }
        if request.trigger == .sheetOpened && onSheetOpened == .keep {
            trace.add("sheet opened and on_sheet_opened is keep: the session's methods stay")
            return .keep
        }

        // The request's own address is read in place when it is in codes already (nearly always).
        let address: ResolvedAddress
        if let inCodes = ResolvedAddress(inCodes: request.address, foldCity: usesCities) {
            address = inCodes
        } else if let normalized = AddressNormalizer.normalizedIfChanged(request.address, trace: &trace) {
            address = ResolvedAddress(normalized, foldCity: usesCities)
        } else {
            address = ResolvedAddress(request.address, foldCity: usesCities)
        }
        for i in serviceabilityRules.indices {
            if let why = serviceabilityRules.ask(i, { $0.mismatch(address) }) {
                trace.add("serviceability[\(serviceabilityRules.objects[i].index)] does not apply: \(why)")
            } else {
                let rule = serviceabilityRules.objects[i]
                trace.add("serviceability[\(rule.index)] applies: \(rule.error.code)")
                return .unserviceable([rule.error])
            }
        }
        if let missing = missingFields.missingFieldError(address, zones: zoneIndex.zones, trace: &trace) { return .unserviceable([missing]) }

        // Without a trace the zone index answers which zones hold the address in one lookup;
        // with one, every zone is asked in turn so the trace can say why each did not match.
        let matched: ZoneSet? = trace.enabled ? nil : zoneIndex.matching(address)
        let zones = AddressZones(matched: matched, address: address)

        var layers: [TaxLayer] = []
        if let matched {
            if !layersByMatch.isEmpty {
                // The list for the layers that apply, made at load (see `layersByMatch`).
                var bits = 0
                for i in layerZones.indices where matched.contains(layerZones[i]) { bits |= 1 << i }
                layers = layersByMatch[bits]
            } else {
                // By number, so that layers that do not apply are never copied (a copy retains every field).
                for (i, zone) in layerZones.enumerated() where matched.contains(zone) { layers.append(tax.layers[i]) }
            }
        }
        // Only the trace's way walks every layer: a `where` clause would copy each layer before testing.
        if matched == nil {
            for layer in tax.layers {
                if let why = layer.zone.mismatch(address) {
                    trace.add("tax layer \(layer.id) does not apply: \(why)")
                } else {
                    if let table = layer.table {
                        trace.add("tax layer \(layer.id) applies (rates from \(table.file)\(layer.includedInPrices ? ", included in prices" : ""))")
                    } else {
                        trace.add("tax layer \(layer.id) applies (\(layer.rate)%\(layer.includedInPrices ? ", included in prices" : ""))")
                    }
                    layers.append(layer)
                }
            }
        }
        // Rate tables say their rate (or rates, per priority) for this address, or that none applies.
        if tax.hasRateTables { TaxLayer.resolveTables(&layers, at: address, trace: &trace) }
        let closed = destinationCalendars.isEmpty ? [] : destinationHolidays(zones, trace: &trace)
        var shipDate: CalendarDate?
        var offered: [ShippingMethod] = []
        offered.reserveCapacity(methods.count)
        // Indexed: only the methods that serve everywhere or serve a matched zone, asked in file
        // order (a set, not a list of them: nothing to allocate for the usual few dozen methods).
        var eligible: ZoneSet?
        if let matched {
            if let byZone = methodBitsByZone {
                var bits = methodBitsEverywhere
                matched.forEachMember { zone in bits |= byZone[zone] }
                eligible = ZoneSet(bits: bits)
            } else {
                var set = ZoneSet(capacity: methods.count)
                for method in methodsEverywhere { set.insert(method) }
                matched.forEachMember { zone in for method in methodsByZone[zone] { set.insert(method) } }
                eligible = set
            }
        }
        var taxes = TaxLinesMemo(layers: layers)
        for position in methods.indices {
            if let eligible, !eligible.contains(position) { continue }
            // The trace's way (no index): each of the method's zones says why it does not hold.
            if matched == nil, let methodZones = methods[position].zones {
                let rule = methods[position]
                var reasons: [String] = []
                guard methodZones.contains(where: { zone in
                    if let why = zone.mismatch(address) {
                        reasons.append("\(zone.name): \(why)")
                        return false
                    }
                    return true
                }) else {
                    trace.add("method \(rule.id) not offered: no zone holds the address (\(reasons.joined(separator: "; ")))")
                    continue
                }
                if let zone = methodZones.first(where: { $0.contains(address) }) { trace.add("method \(rule.id): zone \(zone.name) holds the address") }
            }
            let offer = methodEntries.ask(position) { entry in
                entry.offer(in: self, cart: cart, zones: zones, layers: layers, taxes: &taxes, calendar: self.calendar,
                            closed: closed, shipDate: &shipDate, request: request, trace: &trace)
            }
            if let offer { offered.append(offer) }
        }
        guard !offered.isEmpty else {
            trace.add("no shipping method serves this address: \(noMethodsError.code)")
            return .unserviceable([noMethodsError])
        }

        if request.trigger == .paymentAuthorized { return finalCheck(offered, request: request, trace: &trace) }
        // The sheet preselects the first method and applies the top-level breakdown to the selected
        // one: putting the customer's still-offered choice first keeps the two in agreement.
        if let selected = request.selectedShippingMethodID, let index = offered.firstIndex(where: { $0.id == selected }) {
            if index > 0 { offered.insert(offered.remove(at: index), at: 0) }
            trace.add("selected method \(selected) is still offered")
        } else {
            trace.add("selected method: \(offered[0].id) (the first offered)")
        }
        let update = ShippingUpdate(summaryItems: offered[0].summaryItems, shippingMethods: offered, errors: [])
        let violations = UpdateCheck.violations(of: update, currency: currency)
        guard violations.isEmpty else {
            for v in violations { trace.add("update check: \(v)") }
            return .unserviceable([ShippingError(code: "SHIPPING_UNAVAILABLE", message: noMethodsError.message)])
        }
        return .update(update)
    }

    /// The destination's holidays: those of every delivery calendar whose zone holds the address.
    private func destinationHolidays(_ zones: AddressZones, trace: inout Trace) -> [Int] {
        var lists: [[Int]] = []
        for i in destinationCalendars.indices where zones.holds(number: destinationCalendars[i].zone.number) ?? zones.hold(destinationCalendars[i].zone) {
            // Read where it lies: the calendar copied out was its zone copied too.
            lists.append(destinationCalendars[i].holidays)
            trace.add("\(destinationCalendars[i].field) holds the address: transit days skip its \(destinationCalendars[i].holidays.count) holidays")
        }
        return lists.isEmpty ? [] : DestinationCalendar.merged(lists)
    }

    /// At authorization the customer has chosen: the answer is that method's breakdown at the full
    /// address, or that it is no longer offered. Never another method, which the customer did not accept.
    private func finalCheck(_ offered: [ShippingMethod], request: QuoteRequest, trace: inout Trace) -> QuoteOutcome {
        guard let selected = request.selectedShippingMethodID, let method = offered.first(where: { $0.id == selected }) else {
            let id = request.selectedShippingMethodID ?? "(none)"
            trace.add("final check: selected method \(id) is not offered at this address: \(Self.methodUnavailable.code)")
            return .unserviceable([Self.methodUnavailable])
        }
        trace.add("final check: selected method \(selected) is offered")
        let update = ShippingUpdate(summaryItems: method.summaryItems, shippingMethods: [method], errors: [])
        let violations = UpdateCheck.violations(of: update, currency: request.currency)
        guard violations.isEmpty else {
            for v in violations { trace.add("update check: \(v)") }
            return .unserviceable([ShippingError(code: "SHIPPING_UNAVAILABLE", message: noMethodsError.message)])
        }
        return .update(update)
    }

    /// The answer of a final check whose selected method is no longer offered at the full address.
    public static let methodUnavailable = ShippingError(
        code: ShippingError.shippingMethodUnavailable,
        message: "The selected shipping method is not available for this address. Choose another method.")
}

extension MethodCondition {
    /// Nil when the condition holds, else why not. Unless `explaining`, a why that would be written
    /// out (amounts, times, names) is an empty text: a method refused on every quote (an hour past
    /// the cutoff, a cart below a threshold) made its sentence on every quote for nobody.
    func mismatch(cart: CartFacts, request: QuoteRequest, calendar: DeliveryCalendar?, explaining: Bool = true) -> String? {
        func refused(_ why: @autoclosure () -> String) -> String { explaining ? why() : "" }
        switch self {
        case .orderBefore(let limit):
            guard let calendar else { return "no warehouse clock" }
            let (date, minute) = calendar.localMoment(request.now)
            // "Order before 2pm" promises it leaves today: never on a day the warehouse is closed.
            if calendar.isHoliday(date) { return refused("ordered on \(date), a warehouse holiday") }
            return minute < limit ? nil : refused("ordered at \(Self.clock(minute)), after \(Self.clock(limit)) warehouse time")
        case .weekdays(let days):
            guard let calendar else { return "no warehouse clock" }
            let date = calendar.localMoment(request.now).date
            if calendar.isHoliday(date) { return refused("not offered on \(date), a warehouse holiday") }
            return days.contains(date.weekday) ? nil : refused("not offered on \(Weekday.names[date.weekday])")
        case .cartValueAtLeast(let amount):
            return amount.isReached(by: cart.valueAfterDiscounts) ? nil
                : refused("cart value \(cart.valueAfterDiscounts.decimalString) below \(amount.money(in: request.currency).decimalString)")
        case .cartValueBelow(let amount):
            return amount.isReached(by: cart.valueAfterDiscounts)
                ? refused("cart value \(cart.valueAfterDiscounts.decimalString) not below \(amount.money(in: request.currency).decimalString)") : nil
        case .maxWeightGrams(let grams):
            return cart.weightGrams <= grams ? nil : refused("cart weighs \(cart.weightGrams) g, over \(grams) g")
        case .paymentMethodTypes(let types):
            return types.contains(request.paymentMethodType) ? nil : refused("not offered for \(request.paymentMethodType)")
        case .triggers(let triggers):
            // The final check asks whether the method the sheet showed after the customer's address
            // still holds, so it is judged as an address change.
            let trigger = request.trigger == .paymentAuthorized ? QuoteTrigger.addressChanged : request.trigger
            return triggers.contains(trigger.rawValue) ? nil : refused("not offered on \(request.trigger.rawValue)")
        case .classesIn(let classes):
            return cart.classUnits.keys.contains(where: classes.contains) ? nil
                : refused("no item of class \(classes.sorted().joined(separator: ", "))")
        case .classesNotIn(let classes):
            if cart.classUnits.isEmpty { return nil }   // most carts name no class: nothing to sort
            guard explaining else { return cart.classUnits.keys.contains(where: classes.contains) ? "" : nil }
            let found = cart.classUnits.keys.filter(classes.contains).sorted()
            return found.isEmpty ? nil : "the cart holds class \(found.joined(separator: ", "))"
        }
    }

    static func clock(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }
}
