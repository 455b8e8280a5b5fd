/// A method's `detail` text, split once at load so that quoting only concatenates:
/// `{min}` and `{max}` are filled from the transit days at load, `{from}` and `{to}` per quote.
struct DetailTemplate: Sendable {
    enum Part: Sendable {
        case text(String)
        case from
        case to
    }

    let parts: [Part]
    /// The whole text when it has no date to fill in (nearly every template): a quote hands it
    /// over as it is instead of concatenating it anew.
    private let constant: String?

    init(_ template: String, transit: ClosedRange<Int>?) {
        var text = template
        if let transit {
            text = text.replacing("{min}", with: String(transit.lowerBound)).replacing("{max}", with: String(transit.upperBound))
        }
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{from}") ?? rest.firstRange(of: "{to}") {
            // Take whichever placeholder comes first.
            let from = rest.firstRange(of: "{from}"), to = rest.firstRange(of: "{to}")
            let first = [from, to].compactMap { $0 }.min { $0.lowerBound < $1.lowerBound } ?? open
            if first.lowerBound > rest.startIndex { parts.append(.text(String(rest[..<first.lowerBound]))) }
            parts.append(first == from ? .from : .to)
            rest = rest[first.upperBound...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        self.parts = parts
        switch parts.count {
        case 0: constant = ""
        case 1: if case .text(let t) = parts[0] { constant = t } else { constant = nil }
        default: constant = nil
        }
    }

    func render(_ estimate: DeliveryEstimate?) -> String {
        if let constant { return constant }
        var result = ""
        for part in parts {
            switch part {
            case .text(let t): result += t
            case .from: result += estimate?.from.description ?? ""
            case .to: result += estimate?.to.description ?? ""
            }
        }
        return result
    }
}
