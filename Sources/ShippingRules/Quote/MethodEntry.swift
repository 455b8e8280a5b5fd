import Foundation

/// A shipping method's rule behind a reference. Each quote asks every eligible method for its
/// offer; asked through the rule set's array of structs, the rule was copied (a retain of each of
/// its members) for every ask.
final class MethodEntry: Sendable {
    let rule: ShippingMethodRule

    init(_ rule: ShippingMethodRule) { self.rule = rule }

    /// The method as offered for this cart and address, or nil (and why, in the trace) when it is not.
    @inline(never)   // inlined into the quote, it took the quote past the optimizer's size limits: the array helpers around it went out of line
    func offer(in set: RuleSet, cart: CartFacts, zones: AddressZones,
               layers: [TaxLayer], taxes: inout TaxLinesMemo, calendar: DeliveryCalendar?, closed: [Int], shipDate: inout CalendarDate?,
               request: QuoteRequest, trace: inout Trace) -> ShippingMethod? {
        let currency = request.currency
        for condition in rule.conditions {
            if let why = condition.mismatch(cart: cart, request: request, calendar: calendar, explaining: trace.enabled) {
                trace.add("method \(rule.id) not offered: \(why)")
                return nil
            }
        }
        var priceTrace = Trace(enabled: trace.enabled)
        guard let price = rule.price.price(for: cart, zones: zones, currency: currency, trace: &priceTrace) else {
            trace.add("method \(rule.id) not offered: " + priceTrace.lines.joined(separator: "; "))
            return nil
        }
        trace.add("method \(rule.id) offered at \(price.decimalString)" + (priceTrace.lines.isEmpty ? "" : " (" + priceTrace.lines.joined(separator: "; ") + ")"))

        var estimate: DeliveryEstimate?
        if let transit = rule.transitDays, let calendar {
            // The ship date is the same for every method on the warehouse's cutoff: counted once per quote.
            let ship: CalendarDate
            if let own = rule.cutoffMinutes {
                ship = calendar.shipDate(now: request.now, cutoff: own)
            } else {
                ship = shipDate ?? calendar.shipDate(now: request.now)
                shipDate = ship
            }
            let window = calendar.estimate(transit: transit, shipDate: ship, closed: closed)
            estimate = window
            trace.add("method \(rule.id) delivers \(window.from)…\(window.to) (ships \(ship))")
        }
        var items: [SummaryItem] = []
        items.reserveCapacity(cart.discounts.count + layers.count + 4)
        items.append(SummaryItem(id: "subtotal", label: set.labels.subtotal, amount: cart.merchandise))
        for discount in cart.discounts {
            let id = cart.discounts.count == 1 ? "discount" : "discount-\(discount.id)"
            // Any visible ASCII byte settles it without walking Characters.
            let blank = !discount.label.utf8.contains(where: { $0 > 0x20 && $0 < 0x7f }) && discount.label.allSatisfy(\.isWhitespace)
            let label = blank ? "Discount" : discount.label
            items.append(SummaryItem(id: id, label: label, amount: discount.amount))
        }
        items.append(SummaryItem(id: "shipping", label: set.labels.shipping, amount: price))
        let taxLines: TaxCalculation.Lines
        if trace.enabled {
            // A trace is never served from the memo: each method's steps are written out in full.
            var taxTrace = Trace(enabled: true)
            taxLines = TaxCalculation(ruleSet: set).lines(cart: cart, shipping: price, layers: layers, trace: &taxTrace)
            trace.add(contentsOf: taxTrace, prefix: "method \(rule.id) ")
        } else if let known = taxes.lines(shipping: price) {
            taxLines = known
        } else {
            var none = Trace(enabled: false)
            taxLines = TaxCalculation(ruleSet: set).lines(cart: cart, shipping: price, layers: layers, trace: &none)
            taxes.remember(taxLines, shipping: price)
        }
        // Appended one by one and summed in place: a `map` each made an array per method per quote.
        for line in taxLines.added { items.append(SummaryItem(id: line.id, label: line.label, amount: line.amount)) }
        var total = Money.zero(currency)
        for i in items.indices { total = total + items[i].amount }
        // Contained tax is shown after the added lines with a zero amount: the total stays their sum.
        for line in taxLines.included { items.append(SummaryItem(id: line.id, label: line.label, amount: line.amount)) }
        items.append(SummaryItem(id: "total", label: set.payee, amount: total))

        return ShippingMethod(id: rule.id, label: rule.label, detail: rule.detail?.render(estimate),
                              amount: price, deliveryEstimate: estimate, summaryItems: items)
    }
}
