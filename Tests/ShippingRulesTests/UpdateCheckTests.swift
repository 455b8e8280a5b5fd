import Testing
@testable import ShippingRules

@Suite("The SDK check refuses updates the sheet would ignore")
struct UpdateCheckTests {
    private func item(_ id: String, _ amount: String, label: String? = nil, currency: Currency = .usd) -> SummaryItem {
        SummaryItem(id: id, label: label ?? id.capitalized, amount: try! Money(parsing: amount, currency: currency))
    }

    private func method(_ id: String, items: [SummaryItem]? = nil, label: String = "Standard",
                        from: String = "2026-10-13", to: String = "2026-10-15") -> ShippingMethod {
        ShippingMethod(id: id, label: label, amount: Fixture.usd("5.00"),
                       deliveryEstimate: DeliveryEstimate(from: Fixture.date(from), to: Fixture.date(to)),
                       summaryItems: items ?? [item("subtotal", "50.00"), item("shipping", "5.00"), item("total", "55.00", label: "ACME Inc.")])
    }

    private func violations(_ update: ShippingUpdate) -> [UpdateViolation] { UpdateCheck.violations(of: update, currency: .usd) }

    @Test func aConsistentUpdatePasses() {
        let m = method("standard")
        #expect(violations(ShippingUpdate(summaryItems: m.summaryItems, shippingMethods: [m])).isEmpty)
    }

    @Test func theTotalMustBeTheSumOfTheLinesAbove() {
        let items = [item("subtotal", "50.00"), item("total", "55.00")]
        #expect(violations(ShippingUpdate(summaryItems: items))
                == [.totalNotSumOfLines(list: "summary_items", total: "55.00", sumOfLines: "50.00")])
    }

    /// The top-level list is the first method's own (one array) on every quote: walked once when
    /// clean, and when not, reported under both names as two lists would be.
    @Test func theFirstMethodsListSharedAtTheTopIsReportedUnderBothNames() {
        let wrong = [item("subtotal", "50.00"), item("shipping", "5.00"), item("total", "56.00")]
        let m = method("standard", items: wrong)
        #expect(violations(ShippingUpdate(summaryItems: m.summaryItems, shippingMethods: [m, method("express")]))
                == [.totalNotSumOfLines(list: "summary_items", total: "56.00", sumOfLines: "55.00"),
                    .totalNotSumOfLines(list: "shipping_methods[0].summary_items", total: "56.00", sumOfLines: "55.00")])
        // Equal lists apart: each is walked.
        let clean = method("standard")
        let copied = clean.summaryItems.map { SummaryItem(id: $0.id, label: $0.label, amount: $0.amount) }
        #expect(violations(ShippingUpdate(summaryItems: copied, shippingMethods: [clean])).isEmpty)
        #expect(violations(ShippingUpdate(summaryItems: copied, shippingMethods: [m]))
                == [.totalNotSumOfLines(list: "shipping_methods[0].summary_items", total: "56.00", sumOfLines: "55.00")])
        // A clean top-level list says nothing of a second method's.
        #expect(violations(ShippingUpdate(summaryItems: clean.summaryItems, shippingMethods: [clean, method("express", items: wrong)]))
                == [.totalNotSumOfLines(list: "shipping_methods[1].summary_items", total: "56.00", sumOfLines: "55.00")])
    }

    @Test func anEmptyListHasNoTotal() {
        #expect(violations(ShippingUpdate(summaryItems: [], shippingMethods: [method("a", items: [])]))
                == [.missingTotal(list: "shipping_methods[0].summary_items")])
    }

    @Test func everyAmountIsInTheSessionCurrency() {
        let items = [item("subtotal", "50.00", currency: .eur), item("total", "50.00")]
        #expect(violations(ShippingUpdate(summaryItems: items))
                == [.currencyMismatch(field: "summary_items[0].amount", expected: "USD", found: "EUR")])
    }

    @Test func atMostAHundredMethods() {
        let methods = (0...100).map { method("m\($0)") }
        #expect(violations(ShippingUpdate(summaryItems: methods[0].summaryItems, shippingMethods: methods)) == [.tooManyShippingMethods(count: 101)])
    }

    @Test func atMostAHundredSummaryItemsPerList() {
        let items = (0..<100).map { item("line\($0)", "1.00") } + [item("total", "100.00")]
        #expect(violations(ShippingUpdate(shippingMethods: [method("a", items: items)]))
                == [.tooManySummaryItems(list: "shipping_methods[0].summary_items", count: 101)])
    }

    @Test func aDeliveryRangeMustNotBeReversed() {
        let m = method("a", from: "2026-10-15", to: "2026-10-13")
        #expect(violations(ShippingUpdate(summaryItems: m.summaryItems, shippingMethods: [m]))
                == [.deliveryRangeReversed(method: "shipping_methods[0]", from: Fixture.date("2026-10-15"), to: Fixture.date("2026-10-13"))])
    }

    @Test func labelsMustNotBeEmpty() {
        let m = method("a", label: " ")
        let items = [item("subtotal", "5.00", label: ""), item("total", "5.00")]
        #expect(violations(ShippingUpdate(summaryItems: items, shippingMethods: [m]))
                == [.emptyLabel(field: "summary_items[0].label"), .emptyLabel(field: "shipping_methods[0].label")])
    }

    @Test func methodIdsAreUnique() {
        let m = method("a")
        #expect(violations(ShippingUpdate(summaryItems: m.summaryItems, shippingMethods: [m, m])) == [.duplicateMethodID("a")])
    }

    @Test func aNegativeTotalIsRefused() {
        let items = [item("subtotal", "5.00"), item("discount", "-10.00"), item("total", "-5.00")]
        #expect(violations(ShippingUpdate(summaryItems: items)) == [.negativeTotal(list: "summary_items", total: "-5.00")])
    }

    @Test func aQuoteThatFailsTheCheckIsNeverAnUpdate() throws {
        // 100 discount lines (the event's limit) make 104 summary items, over the sheet's 100.
        let discounts = (0..<100).map { Discount(id: "d\($0)", label: "Promo \($0)", amount: Fixture.usd("-0.01")) }
        let cart = Cart(items: [CartItem(id: "sku-1", label: "T-shirt", quantity: 1, unitAmount: Fixture.usd("10.00"))], discounts: discounts)
        let result = Fixture.acme.explain(Fixture.request(cart: cart))
        #expect(result.result.errorCodes == ["SHIPPING_UNAVAILABLE"])
        #expect(result.trace.contains { $0.hasPrefix("update check:") })
    }
}
