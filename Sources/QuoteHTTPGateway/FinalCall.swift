import QuoteContract
import QuoteGateway
import ShippingRules

/// `POST /v1/sessions/{session_id}/final`, the check after the customer authorized payment: the
/// body of a quote call with the full address, the selected method and the total the sheet showed,
/// turned into a `payment_authorized` event; the reply turned into what to charge.
enum FinalCall {
    static let trigger = QuoteTrigger.paymentAuthorized.rawValue

    /// The only members of `shipping_address` that go on Kafka; street lines (`address_lines`,
    /// `street`, …) are dropped here, before the event is even made.
    static let addressMembers: Set<String> = ["city", "state", "postal_code", "country_code"]

    /// How a final check ended, the answer's `outcome`.
    enum Outcome: String {
        /// The total to charge equals the one the sheet showed.
        case chargeable
        /// The method is still offered, at another total (a full postal code in another tax district).
        case totalChanged = "total_changed"
        /// The selected method is no longer offered at the full address.
        case methodUnavailable = "method_unavailable"
        /// The full address cannot be served at all.
        case unserviceable
    }

    /// The body as the contract's decoder should see it: `trigger` set to `payment_authorized`,
    /// `shown_total` taken out, the address cut down to its four members. `shown_total` is read
    /// once the event's currency is known (`shownTotal`).
    static func eventBody(_ body: JSONObject) -> Result<JSONObject, GatewayResponse> {
        if let given = body["trigger"], given != .string(trigger) {
            return .failure(QuoteCall.badRequest("invalid_field", field: "trigger", "the trigger of /final is \(trigger); leave it out"))
        }
        guard let shown = body["shown_total"], !shown.isNull else {
            return .failure(QuoteCall.badRequest("missing_field", field: "shown_total", "shown_total is required: the total the sheet showed"))
        }
        var members: [JSONMember] = [JSONMember("trigger", .string(trigger))]
        for member in body.members where member.key != "trigger" && member.key != "shown_total" {
            guard member.key == "shipping_address", case .object(let address) = member.value else {
                members.append(member)
                continue
            }
            members.append(JSONMember("shipping_address", .object(JSONObject(address.members.filter { addressMembers.contains($0.key) }))))
        }
        return .success(JSONObject(members))
    }

    /// A `/quote` body is a sheet's call: the final check has its own route, body and answer.
    static func quoteBody(_ body: JSONObject) -> Result<JSONObject, GatewayResponse> {
        guard body["trigger"] == .string(trigger) else { return .success(body) }
        return .failure(QuoteCall.badRequest("invalid_field", field: "trigger", "\(trigger) is the final check: POST /v1/sessions/{session_id}/final"))
    }

    /// The body's `shown_total`, in the event's currency, read exactly as an event's amounts are.
    static func shownTotal(_ body: JSONObject, currency: Currency) -> Result<Money, GatewayResponse> {
        ContractAmount.read(body, "shown_total", currency: currency).mapError { rejection in
            QuoteCall.badRequest(rejection.code.rawValue, field: rejection.field, rejection.message)
        }
    }

    /// 200 with the check's answer (see docs/openapi.yaml); superseded 409 and rejected 422 as for `/quote`.
    static func response(_ answer: QuoteGateway.Answer, shown: Money) -> GatewayResponse {
        guard case .reply(let reply) = answer else { return QuoteCall.response(answer) }
        var headers: [(name: String, value: String)] = [("Quote-Outcome", reply.outcome.kind.rawValue),
                                                        ("Quote-Sequence", String(reply.sequence))]
        if let rules = reply.rulesVersion { headers.append(("Rules-Version", rules)) }
        switch reply.outcome {
        case .rejected:
            return QuoteCall.response(answer)
        case .keep:
            // A worker of contract 1.1 never keeps at authorization; nothing here can be charged.
            return .json(502, QuoteCall.badRequest("unexpected_reply", field: nil, "the worker answered keep to a final check").body,
                         headers: headers)
        case .update(let update):
            guard let total = update.summaryItems.last?.amount else {
                return .json(502, QuoteCall.badRequest("unexpected_reply", field: nil, "the worker's breakdown has no total").body,
                             headers: headers)
            }
            let outcome: Outcome = total == shown ? .chargeable : .totalChanged
            return .json(200, body(outcome, total: total, shown: shown, update: QuoteCall.updateJSON(reply)), headers: headers)
        case .unserviceable(let errors):
            let outcome: Outcome = errors.contains { $0.code == ShippingError.shippingMethodUnavailable } ? .methodUnavailable : .unserviceable
            return .json(200, body(outcome, total: nil, shown: shown, update: QuoteCall.updateJSON(reply)), headers: headers)
        }
    }

    /// `{"outcome", "total", "shown_total", "summary_items", "shipping_method", "errors"}`, the lists
    /// and the method exactly as the reply's `update` carries them.
    private static func body(_ outcome: Outcome, total: Money?, shown: Money, update: [UInt8]) -> [UInt8] {
        var summary: JSONValue = .array([]), method: JSONValue = .null, errors: JSONValue = .array([])
        if case .object(let object)? = try? JSONReader().read(update) {
            summary = object["summary_items"] ?? summary
            if case .array(let methods)? = object["shipping_methods"], let first = methods.first { method = first }
            errors = object["errors"] ?? errors
        }
        var w = JSONWriter(capacity: 256 + update.count)
        w.beginObject()
        w.field("outcome", outcome.rawValue)
        w.key("total")
        if let total { w.amount(total) } else { w.null() }
        w.key("shown_total")
        w.amount(shown)
        w.key("summary_items")
        w.value(summary)
        w.key("shipping_method")
        w.value(method)
        w.key("errors")
        w.value(errors)
        w.endObject()
        return w.bytes
    }
}
