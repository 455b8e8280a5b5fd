import Foundation

/// `rules explain` as text: the request, the answer, each method's breakdown and the trace.
/// Built only from the request, the rules and the answer, so the same input prints the same bytes.
public enum ExplainReport {
    public static func text(rules: RuleSet, request: QuoteRequest) -> String {
        let explanation = rules.explain(request)
        var out: [String] = []
        out.append("rules    \(rules.fileName) \(rules.version)")
        out.append("request  address=\(AddressShorthand.format(request.address)) currency=\(request.currency.code) "
                   + "trigger=\(request.trigger.rawValue) payment=\(request.paymentMethodType) "
                   + "selected=\(request.selectedShippingMethodID ?? "-") now=\(instant(request.now))")
        switch explanation.result {
        case .keep:
            out.append("outcome  keep (the sheet keeps its methods)")
        case .rejected(let rejection):
            out.append("outcome  rejected \(rejection.code): \(rejection.message)")
        case .unserviceable(let errors):
            out.append("outcome  unserviceable")
            for e in errors { out.append("  error  \(e.code): \(e.message)") }
        case .update(let update):
            out.append("outcome  update")
            out.append("summary  (the selected method, \(update.shippingMethods.first?.id ?? "-"))")
            out.append(contentsOf: lines(update.summaryItems))
            for method in update.shippingMethods {
                let window = method.deliveryEstimate.map { " \($0.from)..\($0.to)" } ?? ""
                out.append("method   \(method.id) \"\(method.label)\" \(method.amount.decimalString)\(window)"
                           + (method.detail.map { " \"\($0)\"" } ?? ""))
                out.append(contentsOf: lines(method.summaryItems))
            }
        }
        out.append("trace")
        out.append(contentsOf: explanation.trace.map { "  " + $0 })
        return out.joined(separator: "\n") + "\n"
    }

    private static func lines(_ items: [SummaryItem]) -> [String] {
        let idWidth = items.map(\.id.count).max() ?? 0
        let labelWidth = items.map(\.label.count).max() ?? 0
        let amountWidth = items.map(\.amount.decimalString.count).max() ?? 0
        return items.map { item in
            let amount = item.amount.decimalString
            return "  " + pad(item.id, idWidth) + "  " + pad(item.label, labelWidth) + "  "
                + String(repeating: " ", count: amountWidth - amount.count) + amount
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }

    /// RFC 3339 in UTC, with milliseconds only when the instant has them.
    static func instant(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let millis = (date.timeIntervalSince1970 * 1000).rounded()
        formatter.formatOptions = millis.truncatingRemainder(dividingBy: 1000) == 0
            ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
