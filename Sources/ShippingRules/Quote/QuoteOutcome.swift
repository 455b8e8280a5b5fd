/// What a rule set answers for one request, and what a quote reply tells the gateway to do with
/// the sheet: the one outcome type of the rules, the worker and the wire contract.
public enum QuoteOutcome: Hashable, Sendable {
    /// New totals and methods for the sheet.
    case update(ShippingUpdate)
    /// Keep the sheet as it is (the SDK's `nil`).
    case keep
    /// The address cannot be served; the errors say why, for the customer.
    case unserviceable([ShippingError])
    /// The request cannot be quoted at all (an invalid event, a currency the rules do not price);
    /// the rejection carries no personal data.
    case rejected(QuoteRejection)

    /// The outcome's name, as the reply's `outcome` member and the metrics' `outcome` label carry it.
    public enum Kind: String, CaseIterable, Sendable {
        case update, keep, unserviceable, rejected
    }

    public var kind: Kind {
        switch self {
        case .update: .update
        case .keep: .keep
        case .unserviceable: .unserviceable
        case .rejected: .rejected
        }
    }
}

/// Why a request or an event was refused: a code (`CURRENCY_NOT_PRICED`, `invalid_field`, …) and
/// words that carry no personal data.
public struct QuoteRejection: Hashable, Sendable {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The reply's `rejection` text: `code: message`, or the message alone when there is no code.
    public var wireText: String { code.isEmpty ? message : "\(code): \(message)" }

    /// Reads a reply's `rejection` text: the code ends at the first `": "` (bytes, not characters);
    /// text without one is all message. Round-trips `wireText` for every rejection whose code holds
    /// no `": "` (and, when the code is empty, whose message holds none).
    public init(wireText text: String) {
        let bytes = text.utf8
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let next = bytes.index(after: i)
            if bytes[i] == UInt8(ascii: ":"), next != bytes.endIndex, bytes[next] == UInt8(ascii: " ") {
                self.init(code: String(bytes[..<i])!, message: String(bytes[bytes.index(after: next)...])!)
                return
            }
            i = next
        }
        self.init(code: "", message: text)
    }
}
