/// Quotes one case and lists every way the answer differs from what the case expects.
enum RuleCaseCheck {
    static func run(_ c: RuleCase, rules: RuleSet) -> RuleCaseResult {
        let result = rules.quote(c.request)
        return RuleCaseResult(name: c.name, mark: c.mark, differences: differences(c.expectation, result))
    }

    static func differences(_ e: RuleExpectation, _ result: QuoteOutcome) -> [String] {
        var diffs: [String] = []
        func differ(_ field: String, _ expected: String, _ got: String) {
            if expected != got { diffs.append("\(field): expected \(expected), got \(got)") }
        }
        func same(_ expected: ExactDecimal, _ got: Money) -> Bool { expected == got.exactValue }
        // Expected amounts print with the currency's digits, like the amounts they are compared with.
        func text(_ expected: ExactDecimal, _ got: Money) -> String {
            (try? Money(expected, currency: got.currency))?.decimalString ?? expected.description
        }

        let outcome = result.kind
        var update: ShippingUpdate?
        if case .update(let u) = result { update = u }
        if let expected = e.outcome, expected != outcome {
            diffs.append("outcome: expected \(expected.rawValue), got \(outcome.rawValue)\(Self.reason(result))")
        }

        if let expected = e.errors {
            let got: [String]
            if case .unserviceable(let errors) = result { got = errors.map(\.code) } else { got = [] }
            differ("errors", "[\(expected.joined(separator: ", "))]", "[\(got.joined(separator: ", "))]")
        }
        if let expected = e.rejection {
            var got = "no rejection"
            if case .rejected(let rejection) = result { got = rejection.code }
            differ("rejection", expected, got)
        }

        let needsUpdate = e.methods != nil || !e.summary.isEmpty || !e.labels.isEmpty || e.total != nil
        guard needsUpdate else { return diffs }
        guard let update else {
            if e.outcome == nil { diffs.append("update: expected one, got \(outcome.rawValue)\(Self.reason(result))") }
            return diffs
        }
        if let methods = e.methods {
            differ("methods", "[\(methods.map(\.id).joined(separator: ", "))]", "[\(update.shippingMethods.map(\.id).joined(separator: ", "))]")
            for m in methods {
                guard let got = update.shippingMethods.first(where: { $0.id == m.id }) else { continue }
                if let amount = m.amount, !same(amount, got.amount) { differ("\(m.id).amount", text(amount, got.amount), got.amount.decimalString) }
                if let total = m.total, let last = got.summaryItems.last, !same(total, last.amount) {
                    differ("\(m.id).total", text(total, last.amount), last.amount.decimalString)
                }
                if let from = m.deliveryFrom, let to = m.deliveryTo {
                    let gotText = got.deliveryEstimate.map { "\($0.from)..\($0.to)" } ?? "no estimate"
                    differ("\(m.id).delivery", "\(from)..\(to)", gotText)
                }
                if let detail = m.detail { differ("\(m.id).detail", "\"\(detail)\"", "\"\(got.detail ?? "")\"") }
            }
        }
        for (id, amount) in e.summary {
            guard let line = update.summaryItems.first(where: { $0.id == id }) else {
                diffs.append("summary.\(id): expected \(amount), got no such line (lines: \(update.summaryItems.map(\.id).joined(separator: ", ")))")
                continue
            }
            if !same(amount, line.amount) { differ("summary.\(id)", text(amount, line.amount), line.amount.decimalString) }
        }
        for (id, label) in e.labels {
            let got = update.summaryItems.first(where: { $0.id == id }).map { "\"\($0.label)\"" } ?? "no such line"
            differ("labels.\(id)", "\"\(label)\"", got)
        }
        if let total = e.total, let last = update.summaryItems.last, !same(total, last.amount) {
            differ("total", text(total, last.amount), last.amount.decimalString)
        }
        return diffs
    }

    private static func reason(_ result: QuoteOutcome) -> String {
        switch result {
        case .unserviceable(let errors): return " (\(errors.map(\.code).joined(separator: ", ")))"
        case .rejected(let rejection): return " (\(rejection.code))"
        default: return ""
        }
    }
}
