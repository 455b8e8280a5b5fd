import QuoteContract
import ShippingRules

extension ReplyOutcome {
    /// The reply for what the rules answered.
    init(_ result: QuoteResult) {
        switch result {
        case .update(let update): self = .update(update)
        case .keep: self = .keep
        case .unserviceable(let errors): self = .unserviceable(errors)
        case .rejected(let code, let reason): self = .rejected(reason: "\(code): \(reason)")
        }
    }

    static let rejectedName = "rejected"

    /// The outcome's name on the wire and in metrics.
    var name: String {
        switch self {
        case .update: "update"
        case .keep: "keep"
        case .unserviceable: "unserviceable"
        case .rejected: ReplyOutcome.rejectedName
        }
    }
}
