/// A way a `ShippingUpdate` would break the SDK's rules; the SDK would ignore such a response,
/// so it is never sent as an update.
public enum UpdateViolation: Hashable, Sendable, CustomStringConvertible {
    /// A summary list is empty, so it has no grand total.
    case missingTotal(list: String)
    /// The last line (the grand total) is not the sum of the lines above it.
    case totalNotSumOfLines(list: String, total: String, sumOfLines: String)
    case negativeTotal(list: String, total: String)
    /// An amount is not in the session currency.
    case currencyMismatch(field: String, expected: String, found: String)
    case tooManyShippingMethods(count: Int)
    case tooManySummaryItems(list: String, count: Int)
    /// A delivery estimate whose `from` is after its `to`.
    case deliveryRangeReversed(method: String, from: CalendarDate, to: CalendarDate)
    case emptyLabel(field: String)
    case emptyID(field: String)
    case duplicateMethodID(String)

    public var description: String {
        switch self {
        case .missingTotal(let list): return "\(list): empty, no grand total"
        case .totalNotSumOfLines(let list, let total, let sum): return "\(list): grand total \(total) is not the sum of the lines above (\(sum))"
        case .negativeTotal(let list, let total): return "\(list): grand total \(total) is negative"
        case .currencyMismatch(let field, let expected, let found): return "\(field): amount in \(found), the session is in \(expected)"
        case .tooManyShippingMethods(let count): return "shipping_methods: \(count) methods, the SDK takes at most \(UpdateCheck.maxShippingMethods)"
        case .tooManySummaryItems(let list, let count): return "\(list): \(count) items, the SDK takes at most \(UpdateCheck.maxSummaryItems)"
        case .deliveryRangeReversed(let method, let from, let to): return "\(method).delivery_estimate: from \(from) is after to \(to)"
        case .emptyLabel(let field): return "\(field): empty label"
        case .emptyID(let field): return "\(field): empty id"
        case .duplicateMethodID(let id): return "shipping_methods: id '\(id)' is used twice"
        }
    }
}

/// The SDK's rules for a `YunoShippingUpdate`, checked on every quote before it is answered:
/// each summary list ends with a grand total equal to the sum of the lines above it, one currency
/// everywhere, at most 100 methods and 100 summary items (per list), `from ≤ to`, no empty labels.
public enum UpdateCheck {
    public static let maxShippingMethods = 100
    public static let maxSummaryItems = 100

    public static func violations(of update: ShippingUpdate, currency: Currency) -> [UpdateViolation] {
        var found: [UpdateViolation] = []
        var topLevelClean = false
        if !update.summaryItems.isEmpty || update.shippingMethods.isEmpty {
            check(update.summaryItems, list: "summary_items", currency: currency, into: &found)
            topLevelClean = found.isEmpty
        }
        if update.shippingMethods.count > maxShippingMethods { found.append(.tooManyShippingMethods(count: update.shippingMethods.count)) }
        // Through the buffer, each method read where it lies: `enumerated()`, and even
        // `methods[i]`, copied every method (a retain of each of its strings and lists) on every quote.
        update.shippingMethods.withUnsafeBufferPointer { methods in
            for i in methods.indices {
                // Field names are built only for a violation: this runs on every quote.
                func field() -> String { "shipping_methods[\(i)]" }
                if methods[i].id.isEmpty { found.append(.emptyID(field: "\(field()).id")) }
                // A handful of methods: comparing with the earlier ones beats hashing every id.
                else if methods[..<i].contains(where: { $0.id == methods[i].id }) { found.append(.duplicateMethodID(methods[i].id)) }
                if isBlank(methods[i].label) { found.append(.emptyLabel(field: "\(field()).label")) }
                if methods[i].amount.currency != currency {
                    found.append(.currencyMismatch(field: "\(field()).amount", expected: currency.code, found: methods[i].amount.currency.code))
                }
                if let estimate = methods[i].deliveryEstimate, estimate.from > estimate.to {
                    found.append(.deliveryRangeReversed(method: field(), from: estimate.from, to: estimate.to))
                }
                // The top-level list is nearly always the first method's own, the same storage:
                // found clean there, it is clean here, and is not walked again.
                if i == 0, topLevelClean, sameStorage(methods[0].summaryItems, update.summaryItems) { continue }
                check(methods[i].summaryItems, list: "\(field()).summary_items", currency: currency, into: &found)
            }
        }
        return found
    }

    private static func check(_ items: [SummaryItem], list: @autoclosure () -> String, currency: Currency, into found: inout [UpdateViolation]) {
        items.withUnsafeBufferPointer { check($0, list: list(), currency: currency, into: &found) }
    }

    private static func check(_ items: UnsafeBufferPointer<SummaryItem>, list: @autoclosure () -> String, currency: Currency,
                              into found: inout [UpdateViolation]) {
        // The total's amount, not the item: a copy of the item was a retain of its id and label.
        guard !items.isEmpty else { found.append(.missingTotal(list: list())); return }
        let total = items[items.count - 1].amount
        if items.count > maxSummaryItems { found.append(.tooManySummaryItems(list: list(), count: items.count)) }
        var sum: Int128 = 0
        var oneCurrency = true
        for i in items.indices {
            if isBlank(items[i].label) { found.append(.emptyLabel(field: "\(list())[\(i)].label")) }
            if items[i].id.isEmpty { found.append(.emptyID(field: "\(list())[\(i)].id")) }
            if items[i].amount.currency != currency {
                oneCurrency = false
                found.append(.currencyMismatch(field: "\(list())[\(i)].amount", expected: currency.code, found: items[i].amount.currency.code))
            }
            if i < items.count - 1 { sum += Int128(items[i].amount.minorUnits) }
        }
        guard oneCurrency else { return }           // a sum across currencies means nothing
        if items.count > 1, sum != Int128(total.minorUnits) {
            let sumText = sum.magnitude <= UInt128(Money.maxMinorUnits)
                ? Money(minorUnits: Int64(sum), currency: currency).decimalString : "out of range"
            found.append(.totalNotSumOfLines(list: list(), total: total.decimalString, sumOfLines: sumText))
        }
        if total.isNegative { found.append(.negativeTotal(list: list(), total: total.decimalString)) }
    }

    /// Whether two lists are one: the same elements where they lie.
    private static func sameStorage(_ a: [SummaryItem], _ b: [SummaryItem]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count } }
    }

    @inline(__always)
    private static func isBlank(_ text: String) -> Bool {
        // Any visible ASCII byte settles it without Unicode properties (run on every quote); the
        // bytes are read in place, the first one nearly always settling it.
        if text.anyUTF8({ $0 > 0x20 && $0 < 0x7f }) { return false }
        return text.allSatisfy(\.isWhitespace)
    }
}
