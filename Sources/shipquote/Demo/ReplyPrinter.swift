import QuoteContract
import ShippingRules

/// Renders a reply for a person following the demo.
enum ReplyPrinter {
    static func lines(_ reply: QuoteReply) -> [String] {
        let name = reply.outcome.kind.rawValue
        switch reply.outcome {
        case .keep:
            return ["\(name) — the sheet keeps what it shows (the SDK's nil)"]
        case .rejected(let rejection):
            return ["\(name) — \(rejection.wireText)"]
        case .unserviceable(let errors):
            return [name] + errors.map { "    \($0.code): \"\($0.message)\"" }
        case .update(let update):
            var out = [name]
            for m in update.shippingMethods {
                let dates = m.deliveryEstimate.map { "  \($0.from) → \($0.to)" } ?? ""
                out.append("    \(pad(m.label, 22)) \(pad(m.amount.decimalString, 8, left: true))\(dates)")
            }
            out.append("    breakdown of the selected method:")
            for item in update.summaryItems {
                out.append("      \(pad(item.label, 20)) \(pad(item.amount.decimalString, 8, left: true)) \(item.amount.currency.code)")
            }
            return out
        }
    }

    static func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return left ? fill + s : s + fill
    }
}
