import Foundation

/// Reads `cases.yaml`: optional `defaults` (any request field) and a list of `cases`, each a
/// request plus `expect`. A case's fields replace the defaults' (a case's cart replaces the whole
/// default cart).
struct RuleCaseReader {
    let file: String

    static let requestKeys: Set<String> = ["merchant", "currency", "now", "trigger", "payment_method_type", "address", "cart", "selected_method"]

    /// Every case, or every independent error of the file at once (each case is read on its own).
    func cases(_ root: YAMLNode) throws(RulesError) -> [RuleCase] {
        let log = RulesDiagnostics()
        do {
            let result = try cases(RulesNode(node: root, file: file, path: "", log: log))
            if !log.hasErrors { return result }
        } catch {
            log.record(error)
        }
        throw log.failure ?? RulesError(kind: .invalidValue, file: file, mark: root.mark, field: "", message: "the cases could not be read")
    }

    private func cases(_ root: RulesNode) throws(RulesError) -> [RuleCase] {
        let doc = try root.mapping("a mapping with defaults: and cases:", keys: ["defaults", "cases"])
        var defaults: [String: RulesNode] = [:]
        if let d = doc["defaults"] {
            let m = try d.mapping("request fields like {currency: USD, now: \"2026-10-10T12:00:00Z\"}", keys: Self.requestKeys)
            for key in Self.requestKeys { if let n = m[key] { defaults[key] = n } }
        }
        let list = try doc.required("cases", "a list of cases like [{name: …, address: US/CA/95014, expect: {outcome: update}}]")
        var result: [RuleCase] = []
        var names: Set<String> = []
        let entries = try list.list()
        for entry in entries {
            root.log.attempt { () throws(RulesError) in
                let c = try read(entry, defaults: defaults)
                guard names.insert(c.name).inserted else { throw entry.error(.duplicate, "case name '\(c.name)' is used twice; names must be unique") }
                result.append(c)
            }
        }
        guard !entries.isEmpty else { throw list.expected("at least one case") }
        return result
    }

    private func read(_ node: RulesNode, defaults: [String: RulesNode]) throws(RulesError) -> RuleCase {
        let m = try node.mapping("a case like {name: …, address: US/CA/95014, cart: {…}, expect: {…}}",
                                 keys: Self.requestKeys.union(["name", "expect"]))
        let name = try m.required("name", "a name for the case").nonEmptyString("a name for the case")
        func field(_ key: String) -> RulesNode? { m[key] ?? defaults[key] }

        guard let currencyNode = field("currency") else {
            throw node.error(.missingKey, "missing currency; give it in the case or under defaults, like currency: USD")
        }
        let currencyCode = try currencyNode.string("an ISO 4217 code like USD")
        guard let currency = Currency(code: currencyCode) else { throw currencyNode.expected("an ISO 4217 code like USD") }
        guard let nowNode = field("now") else {
            throw node.error(.missingKey, "missing now; give the quote's time in the case or under defaults, like now: \"2026-10-10T12:00:00Z\"")
        }
        let now = try Self.instant(nowNode)
        let trigger = try field("trigger").map { (n) throws(RulesError) in try Self.trigger(n) } ?? .addressChanged
        let payment = try field("payment_method_type")?.nonEmptyString("a wallet like APPLE_PAY") ?? "APPLE_PAY"
        let address = try field("address").map { (n) throws(RulesError) in try Self.address(n) } ?? PartialAddress()
        let cart = try field("cart").map { (n) throws(RulesError) in try Self.cart(n, currency: currency) } ?? Cart()
        let selected = try field("selected_method")?.nonEmptyString("a method id")
        let merchant = try field("merchant")?.nonEmptyString("a merchant id")
        let request = QuoteRequest(merchant: merchant, paymentMethodType: payment, trigger: trigger, currency: currency,
                                   address: address, cart: cart, selectedShippingMethodID: selected, now: now)
        let expectation = try Self.expectation(try m.required("expect", "what the quote must show, like {outcome: update}"))
        return RuleCase(name: name, mark: node.mark, request: request, expectation: expectation)
    }

    /// RFC 3339 with `Z` or an offset, with or without fractional seconds.
    static func instant(_ node: RulesNode) throws(RulesError) -> Date {
        let what = "an RFC 3339 time like \"2026-10-10T12:00:00Z\""
        let text = try node.string(what)
        guard let date = RFC3339.parse(text) else { throw node.expected(what) }
        return date
    }

    static func address(_ node: RulesNode) throws(RulesError) -> PartialAddress {
        if case .scalar = node.node { return AddressShorthand.parse(try node.string("an address like US/CA/95014/Cupertino")) }
        let m = try node.mapping("an address like {country: US, state: CA, postal_code: \"95014\", city: Cupertino}",
                                 keys: ["country", "state", "postal_code", "city"])
        return PartialAddress(city: try m["city"]?.string(), state: try m["state"]?.string(),
                              postalCode: try m["postal_code"]?.string(), countryCode: try m["country"]?.string())
    }

    static func cart(_ node: RulesNode, currency: Currency) throws(RulesError) -> Cart {
        let m = try node.mapping("a cart like {items: [{id: a, label: A, quantity: 1, unit_amount: 10.00}]}", keys: ["items", "discounts", "subtotal"])
        var items: [CartItem] = [], discounts: [Discount] = []
        func dimensions(_ node: RulesNode) throws(RulesError) -> ItemDimensions {
            let d = try node.mapping("a size like {length: 600, width: 400, height: 400}", keys: ["length", "width", "height"])
            func side(_ key: String) throws(RulesError) -> Int {
                try d.required(key, "millimetres").int("millimetres", in: 0...ItemDimensions.maxMillimetres)
            }
            return ItemDimensions(length: try side("length"), width: try side("width"), height: try side("height"))
        }
        for (i, entry) in (try m["items"]?.list() ?? []).enumerated() {
            let item = try entry.mapping("an item like {id: sku-1, label: T-shirt, quantity: 2, unit_amount: 25.00}",
                                         keys: ["id", "label", "quantity", "unit_amount", "tax_category", "weight_grams",
                                                "shipping_class", "dimensions_mm"])
            items.append(CartItem(
                id: try item["id"]?.nonEmptyString("an item id") ?? "item-\(i + 1)",
                label: try item["label"]?.nonEmptyString("a label") ?? "Item \(i + 1)",
                quantity: try item["quantity"]?.int("a quantity", in: 1...1_000_000) ?? 1,
                unitAmount: try money(try item.required("unit_amount", "the unit price like 25.00"), currency),
                taxCategory: try item["tax_category"]?.nonEmptyString("a tax category like apparel"),
                weightGrams: try item["weight_grams"]?.int("a weight in grams", in: 0...100_000_000),
                shippingClass: try item["shipping_class"]?.nonEmptyString("a shipping class like oversized"),
                dimensions: try item["dimensions_mm"].map { (n) throws(RulesError) in try dimensions(n) }))
        }
        for (i, entry) in (try m["discounts"]?.list() ?? []).enumerated() {
            let d = try entry.mapping("a discount like {id: promo, label: Promo, amount: -5.00}", keys: ["id", "label", "amount"])
            let amountNode = try d.required("amount", "a negative amount like -5.00")
            let amount = try money(amountNode, currency)
            guard amount.minorUnits <= 0 else { throw amountNode.expected("an amount of zero or less, like -5.00") }
            discounts.append(Discount(id: try d["id"]?.nonEmptyString("a discount id") ?? "discount-\(i + 1)",
                                           label: try d["label"]?.nonEmptyString("a label") ?? "Discount", amount: amount))
        }
        let subtotal = try m["subtotal"].map { (n) throws(RulesError) in try money(n, currency) }
        return Cart(items: items, discounts: discounts, subtotal: subtotal)
    }

    static func money(_ node: RulesNode, _ currency: Currency) throws(RulesError) -> Money {
        let value = try node.decimal("an amount like 5.00")
        do { return try Money(value, currency: currency) } catch {
            throw node.error(.invalidValue, "expected at most \(currency.minorDigits) decimals for \(currency.code), found \(node.node.shortDescription)")
        }
    }

    /// Any trigger, the final check's too: a case may test what a rules file's `triggers` cannot name.
    static func trigger(_ node: RulesNode) throws(RulesError) -> QuoteTrigger {
        let names = "sheet_opened|address_changed|payment_authorized"
        guard let trigger = QuoteTrigger(rawValue: try node.string(names)) else { throw node.expected(names) }
        return trigger
    }

    static func expectation(_ node: RulesNode) throws(RulesError) -> RuleExpectation {
        let m = try node.mapping("expectations like {outcome: update, total: 53.94}",
                                 keys: ["outcome", "methods", "summary", "labels", "total", "errors", "rejection"])
        var e = RuleExpectation()
        e.outcome = try m["outcome"]?.choice(RuleExpectation.Outcome.self)
        if let list = m["methods"] {
            var methods: [RuleExpectation.Method] = []
            for item in try list.list() {
                if case .scalar = item.node { methods.append(.init(id: try item.string("a method id"))); continue }
                let mm = try item.mapping("a method like {id: standard, amount: 5.00, delivery: 2026-10-15..2026-10-19, total: 53.94}",
                                          keys: ["id", "amount", "delivery", "total", "detail"])
                var method = RuleExpectation.Method(id: try mm.required("id", "a method id").string("a method id"))
                method.amount = try mm["amount"]?.decimal()
                method.total = try mm["total"]?.decimal()
                method.detail = try mm["detail"]?.string()
                if let d = mm["delivery"] {
                    let what = "dates like 2026-10-15..2026-10-19 (or one date)"
                    let parts = try d.string(what).components(separatedBy: "..")
                    guard (1...2).contains(parts.count), let from = CalendarDate(iso: parts[0]),
                          let to = CalendarDate(iso: parts.last!) else { throw d.expected(what) }
                    method.deliveryFrom = from
                    method.deliveryTo = to
                }
                methods.append(method)
            }
            e.methods = methods
        }
        if let s = m["summary"] {
            for key in RuleSetLoader.keys(of: s) {
                let sm = try s.mapping("breakdown amounts by line id, like {subtotal: 50.00, tax: 3.94}", keys: Set(RuleSetLoader.keys(of: s)))
                e.summary.append((key, try sm[key]!.decimal()))
            }
        }
        if let l = m["labels"] {
            for key in RuleSetLoader.keys(of: l) {
                let lm = try l.mapping("breakdown labels by line id, like {tax-included: \"Includes VAT GBP 8.33\"}", keys: Set(RuleSetLoader.keys(of: l)))
                e.labels.append((key, try lm[key]!.string()))
            }
        }
        e.total = try m["total"]?.decimal()
        e.errors = try m["errors"]?.stringList("an error code like POSTAL_CODE_INVALID")
        e.rejection = try m["rejection"]?.string("a rejection code like CURRENCY_NOT_PRICED")
        return e
    }
}
