import Foundation
import QuoteContract
import QuoteHTTPGateway
import Testing

/// `POST /v1/sessions/{id}/final` end to end over real sockets: curl → the HTTP gateway → a
/// `payment_authorized` event on Kafka → a worker → the answer that says what to charge.
@Suite(.serialized) struct FinalHTTPCheckTests {
    /// Test rules where ZIP 95014 crosses a district line: its ZIP+4 codes 95014-3xxx lie in a
    /// district with a tax of its own, which the shortened 95014 the sheet saw cannot show. The
    /// local courier serves 95014 but not its 95014-9xxx codes.
    static let districtRules = """
        version: 1
        merchant: acme
        payee: ACME Inc.
        currencies: [USD]
        rounding: { mode: half_up, level: line }
        zones:
          - { id: us-50, country: US, exclude_states: [PR, GU, VI, AS, MP] }
          - { id: district-95014-3, country: US, state: CA, postal_codes: ["95014-3*"] }
          - { id: courier-area, country: US, state: CA, postal_codes: ["95014*"], exclude_postal_codes: ["95014-9*"] }
        serviceability:
          - when: { country_not_in: [US] }
            error: { code: COUNTRY_NOT_SUPPORTED, message: "We ship to the United States only." }
        tax:
          summary: combined
          layers:
            - { id: ca, label: CA sales tax, zone: { country: US, state: CA }, rate: 7.25%, shipping: exempt }
            - { id: district, label: District tax, zone: district-95014-3, rate: 1%, shipping: exempt }
        shipping_methods:
          - { id: standard, label: Standard shipping, zones: [us-50], price: { base: 5.00, free_over: 100.00 } }
          - { id: courier, label: Local courier, zones: [courier-area], price: 9.00 }
        """

    static func rulesFile() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("final-district-\(UUID().uuidString).yaml")
        try Data(districtRules.utf8).write(to: url)
        return url.path
    }

    static func items(tax: String, shipping: String, total: String) -> String {
        #"[{"id":"subtotal","label":"Subtotal","amount":{"currency":"USD","value":"50.00"}},"#
            + #"{"id":"shipping","label":"Shipping","amount":{"currency":"USD","value":"\#(shipping)"}},"#
            + #"{"id":"tax","label":"Tax","amount":{"currency":"USD","value":"\#(tax)"}},"#
            + #"{"id":"total","label":"ACME Inc.","amount":{"currency":"USD","value":"\#(total)"}}]"#
    }

    @Test func theFullPostalCodeInAnotherDistrictChangesTheTotal() async throws {
        guard Curl.path != nil else { Issue.record("curl is not installed (apt-get install curl)"); return }
        let rules = try Self.rulesFile()
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let stack = try await GatewayStack(worker: true, rules: rules)
        defer { Task { await stack.stop() } }

        // The sheet saw the shortened ZIP: 50.00 + 5.00 shipping + 7.25 % of 50.00 (3.625 → 3.63).
        let sheet = try await Curl.call(stack.url(session: "s-district"), body: Bodies.quote(postalCode: "95014"))
        #expect(sheet.status == 200, "\(sheet.status) \(sheet.text)")
        #expect(sheet.text.hasPrefix("{\"summary_items\":" + Self.items(tax: "3.63", shipping: "5.00", total: "58.63")))

        // At authorization the full ZIP+4 lies in the district: 8.25 % of 50.00 (4.125 → 4.13).
        let changed = try await Curl.call(stack.finalURL(session: "s-district"), body: Bodies.final(postalCode: "95014-3101", shownTotal: "58.63"))
        #expect(changed.status == 200, "\(changed.status) \(changed.text)")
        #expect(changed.headers["content-type"] == "application/json")
        #expect(changed.headers["quote-outcome"] == "update")
        #expect(changed.headers["quote-sequence"] == "2")
        let breakdown = Self.items(tax: "4.13", shipping: "5.00", total: "59.13")
        #expect(changed.text == #"{"outcome":"total_changed","total":{"currency":"USD","value":"59.13"},"#
                + #""shown_total":{"currency":"USD","value":"58.63"},"summary_items":\#(breakdown),"#
                + #""shipping_method":{"id":"standard","label":"Standard shipping","amount":{"currency":"USD","value":"5.00"},"#
                + #""summary_items":\#(breakdown)},"errors":[]}"#)

        // What went on Kafka: a payment_authorized event with the full postal code and no street line.
        let produced = try stack.producedEvents(session: "s-district", count: 2)
        #expect(produced.count == 2)
        let final = try #require(produced.last)
        let event = try AddressChangeEvent.decode(unkeyed: final).get()
        #expect(event.trigger == .paymentAuthorized && event.sequence == 2 && event.selectedShippingMethodID == "standard")
        let text = String(decoding: final, as: UTF8.self)
        #expect(text.contains(#""shipping_address":{"city":"Cupertino","state":"CA","postal_code":"95014-3101","country_code":"US"}"#))
        #expect(!text.contains("Infinite") && !text.contains("Building") && !text.contains("address_lines") && !text.contains("shown_total"))

        // Elsewhere in 95014 the total is the one shown: charge it.
        let same = try await Curl.call(stack.finalURL(session: "s-same"), body: Bodies.final(postalCode: "95014-1234", shownTotal: "58.63"))
        #expect(same.status == 200, "\(same.status) \(same.text)")
        let sameBreakdown = Self.items(tax: "3.63", shipping: "5.00", total: "58.63")
        #expect(same.text == #"{"outcome":"chargeable","total":{"currency":"USD","value":"58.63"},"#
                + #""shown_total":{"currency":"USD","value":"58.63"},"summary_items":\#(sameBreakdown),"#
                + #""shipping_method":{"id":"standard","label":"Standard shipping","amount":{"currency":"USD","value":"5.00"},"#
                + #""summary_items":\#(sameBreakdown)},"errors":[]}"#)
        // shown_total read exactly as an amount: the number 58.630 is 58.63.
        let number = String(decoding: Bodies.final(postalCode: "95014-1234", shownTotal: "58.63"), as: UTF8.self)
            .replacingOccurrences(of: #""value":"58.63""#, with: #""value":58.630"#)
        let asNumber = try await Curl.call(stack.finalURL(session: "s-number"), body: Array(number.utf8))
        #expect(asNumber.status == 200 && asNumber.text.hasPrefix(#"{"outcome":"chargeable","#), "\(asNumber.text)")

        // The courier the sheet offered at 95014 does not serve 95014-9001: refused, never replaced.
        let gone = try await Curl.call(stack.finalURL(session: "s-gone"),
                                       body: Bodies.final(postalCode: "95014-9001", selected: "courier", shownTotal: "62.63"))
        #expect(gone.status == 200, "\(gone.status) \(gone.text)")
        #expect(gone.headers["quote-outcome"] == "unserviceable")
        #expect(gone.text == #"{"outcome":"method_unavailable","total":null,"shown_total":{"currency":"USD","value":"62.63"},"#
                + #""summary_items":[],"shipping_method":null,"errors":[{"code":"SHIPPING_METHOD_UNAVAILABLE","#
                + #""message":"The selected shipping method is not available for this address. Choose another method."}]}"#)

        // An address that cannot be served at all.
        let abroad = try await Curl.call(stack.finalURL(session: "s-abroad"),
                                         body: Bodies.final(postalCode: "75001", shownTotal: "58.63", country: "FR", state: "IDF"))
        #expect(abroad.status == 200)
        #expect(abroad.text == #"{"outcome":"unserviceable","total":null,"shown_total":{"currency":"USD","value":"58.63"},"#
                + #""summary_items":[],"shipping_method":null,"errors":[{"code":"COUNTRY_NOT_SUPPORTED","#
                + #""message":"We ship to the United States only."}]}"#)

        // A currency the rules do not price: rejected, 422 as for /quote.
        let euros = try await Curl.call(stack.finalURL(session: "s-eur"), body: Bodies.final(postalCode: "95014", shownTotal: "58.63", currency: "EUR"))
        #expect(euros.status == 422, "\(euros.status) \(euros.text)")
        guard case .object(let reason)? = euros.json else { Issue.record("422 without a JSON body"); return }
        #expect(reason["code"] == .string("CURRENCY_NOT_PRICED"))

        // Logs and metrics: the route is final; no street, postal code or cart in any line.
        let logs = stack.logBook.lines.withLock { $0 }.joined(separator: "\n")
        #expect(logs.contains("final") && logs.contains("s-district"))
        #expect(!logs.contains("Infinite") && !logs.contains("95014") && !logs.contains("T-shirt") && !logs.contains("58.63"))
        let metrics = try await Curl.call("\(stack.base)/metrics", method: "GET")
        #expect(metrics.text.contains("shipquote_gateway_requests_total{route=\"final\",status=\"200\"} 5"), "\(metrics.text)")
        #expect(metrics.text.contains("shipquote_gateway_requests_total{route=\"final\",status=\"422\"} 1"))
    }

    @Test func badFinalBodiesAreRefusedNamingTheField() async throws {
        guard Curl.path != nil else { Issue.record("curl is not installed (apt-get install curl)"); return }
        let stack = try await GatewayStack(worker: false)
        defer { Task { await stack.stop() } }
        let url = stack.finalURL(session: "s-bad-final")
        let good = String(decoding: Bodies.final(postalCode: "95014-3101", shownTotal: "58.63"), as: UTF8.self)

        func refusal(_ body: String) async throws -> (Int, String?, String?) {
            let result = try await Curl.call(url, body: Array(body.utf8))
            guard case .object(let object)? = result.json else { return (result.status, nil, nil) }
            let error: String? = if case .string(let text)? = object["error"] { text } else { nil }
            let field: String? = if case .string(let text)? = object["field"] { text } else { nil }
            return (result.status, error, field)
        }

        let noShown = good.replacingOccurrences(of: #","shown_total":{"currency":"USD","value":"58.63"}"#, with: "")
        #expect(try await refusal(noShown) == (400, "missing_field", "shown_total"))
        let noMethod = good.replacingOccurrences(of: #""selected_shipping_method_id":"standard","#, with: "")
        #expect(try await refusal(noMethod) == (400, "missing_field", "selected_shipping_method_id"))
        let otherCurrency = good.replacingOccurrences(of: #""shown_total":{"currency":"USD""#, with: #""shown_total":{"currency":"EUR""#)
        #expect(try await refusal(otherCurrency) == (400, "currency_mismatch", "shown_total.currency"))
        let finer = good.replacingOccurrences(of: #""value":"58.63"}"#, with: #""value":"58.625"}"#)
        #expect(try await refusal(finer) == (400, "invalid_field", "shown_total.value"))
        let notAnAmount = good.replacingOccurrences(of: #"{"currency":"USD","value":"58.63"}"#, with: "58.63")
        #expect(try await refusal(notAnAmount) == (400, "invalid_field", "shown_total"))
        let otherTrigger = good.replacingOccurrences(of: #""currency":"USD","#, with: #""currency":"USD","trigger":"address_changed","#)
        #expect(try await refusal(otherTrigger) == (400, "invalid_field", "trigger"))
        let ownTrigger = good.replacingOccurrences(of: #""currency":"USD","#, with: #""currency":"USD","trigger":"payment_authorized","#)
        #expect(try await Curl.call(url, body: Array(ownTrigger.utf8), headers: ["Request-Timeout": "0.2"]).status == 504)
        #expect(stack.http.metrics.render().contains("shipquote_gateway_requests_total{route=\"final\",status=\"400\"} 6"))

        // Paths near the two routes are no session's.
        for path in ["/v1/sessions/final", "/v1/sessions//final", "/v1/sessions/quote", "/v1/sessions/a/b/final", "/v1/sessions/a/finals"] {
            let missing = try await Curl.call(stack.base + path, body: Array(good.utf8))
            #expect(missing.status == 404, "\(path): \(missing.status)")
        }

        // The final check is /final's: /quote refuses its trigger and points there.
        let onQuote = try await Curl.call(stack.url(session: "s-bad-final"), body: Bodies.quote(trigger: "payment_authorized"))
        #expect(onQuote.status == 400)
        #expect(onQuote.text == #"{"error":"invalid_field","field":"trigger","message":"payment_authorized is the final check: POST /v1/sessions/{session_id}/final"}"#)
    }

    @Test func anOvertakenFinalCheckIsSupersededAndALateOneTimesOut() async throws {
        guard Curl.path != nil else { Issue.record("curl is not installed (apt-get install curl)"); return }
        let stack = try await GatewayStack(worker: false)  // nobody answers
        defer { Task { await stack.stop() } }
        let body = Bodies.final(postalCode: "95014-3101", shownTotal: "58.63")
        // The first call at `.high` too, as the second (`onceACallIsInFlight` says why).
        let first = Task(priority: .high) { try await Curl.call(stack.finalURL(session: "s-final-race"), body: body, headers: ["Request-Timeout": "10"]) }
        let second = try await stack.onceACallIsInFlight {
            try await Curl.call(stack.finalURL(session: "s-final-race"), body: body, headers: ["Request-Timeout": "0.5"])
        }
        #expect(second.status == 504)
        #expect(second.text == "{\"error\":\"timed_out\",\"sequence\":2}")
        let overtaken = try await first.value
        #expect(overtaken.status == 409)
        #expect(overtaken.text == "{\"superseded_by\":2}")
        let metrics = stack.http.metrics.render()
        #expect(metrics.contains("shipquote_gateway_requests_total{route=\"final\",status=\"409\"} 1"))
        #expect(metrics.contains("shipquote_gateway_requests_total{route=\"final\",status=\"504\"} 1"))
    }
}
