import Foundation
import QuoteContract
import QuoteHTTPGateway
import Testing

/// `POST /v1/sessions/{id}/quote` end to end: curl → the HTTP gateway → Kafka (embedded) → a worker
/// in-process → the reply → the answer the merchant's backend hands to the SDK.
@Suite(.serialized) struct QuoteHTTPGatewayTests {
    @Test func everyOutcomeHasItsAnswer() async throws {
        guard Curl.path != nil else { Issue.record("curl is not installed (apt-get install curl)"); return }
        let stack = try await GatewayStack(worker: true)
        defer { Task { await stack.stop() } }

        // update → 200 with exactly the update the worker published.
        let update = try await Curl.call(stack.url(session: "s-update"), body: Bodies.quote())
        #expect(update.status == 200, "\(update.status) \(update.text)")
        #expect(update.headers["content-type"] == "application/json")
        #expect(update.headers["quote-outcome"] == "update")
        #expect(update.headers["quote-sequence"] == "1")
        #expect(update.text.hasPrefix("{\"summary_items\":["))
        let published = try stack.publishedUpdate(session: "s-update", sequence: 1)
        #expect(published != nil && update.json == published)

        // The gateway numbers the session's calls itself when the body has no sequence.
        let again = try await Curl.call(stack.url(session: "s-update"), body: Bodies.quote(quantity: 3))
        #expect(again.status == 200, "\(again.status) \(again.text)")
        #expect(again.headers["quote-sequence"] == "2")

        // keep (the sheet's first call, on_sheet_opened: keep) → 204, the SDK's nil.
        let keep = try await Curl.call(stack.url(session: "s-keep"), body: Bodies.quote(trigger: "sheet_opened"))
        #expect(keep.status == 204, "\(keep.status) \(keep.text)")
        #expect(keep.body.isEmpty)
        #expect(keep.headers["quote-outcome"] == "keep")

        // rejected (a currency the rules do not price) → 422 with the reason.
        let rejected = try await Curl.call(stack.url(session: "s-rejected"), body: Bodies.quote(currency: "EUR"))
        #expect(rejected.status == 422, "\(rejected.status) \(rejected.text)")
        guard case .object(let reason)? = rejected.json else { Issue.record("422 without a JSON body"); return }
        #expect(reason["code"] == .string("CURRENCY_NOT_PRICED"))

        // unserviceable → 200 with the update whose errors the SDK shows on the sheet.
        let abroad = try await Curl.call(stack.url(session: "s-abroad"), body: Bodies.quote(country: "FR", state: "IDF", postalCode: "75001"))
        #expect(abroad.status == 200, "\(abroad.status) \(abroad.text)")
        #expect(abroad.headers["quote-outcome"] == "unserviceable")
        guard case .object(let abroadUpdate)? = abroad.json, case .array(let errors)? = abroadUpdate["errors"],
              case .object(let first)? = errors.first else { Issue.record("no errors in \(abroad.text)"); return }
        #expect(first["code"] == .string("COUNTRY_NOT_SUPPORTED"))

        // Contract 1.1's shipping profiles pass through: a battery keeps express (by air) off the sheet.
        let battery = String(decoding: Bodies.quote(), as: UTF8.self)
            .replacingOccurrences(of: "\"weight_grams\":300", with: "\"weight_grams\":300,\"shipping_class\":\"battery\"")
        let profiled = try await Curl.call(stack.url(session: "s-battery"), body: Array(battery.utf8))
        #expect(profiled.status == 200, "\(profiled.status) \(profiled.text)")
        guard case .object(let profiledUpdate)? = profiled.json, case .array(let methods)? = profiledUpdate["shipping_methods"] else {
            Issue.record("no methods in \(profiled.text)"); return
        }
        // The gateway quotes at the wall clock, so same-day may or may not be offered; express never is.
        let ids = methods.compactMap { if case .object(let m) = $0, case .string(let id)? = m["id"] { id } else { nil } }
        #expect(ids.first == "standard" && !ids.contains("express"), "\(ids)")

        // An explicit sequence is used as given.
        let given = try await Curl.call(stack.url(session: "s-given"), body: Bodies.quote(sequence: 41))
        #expect(given.status == 200 && given.headers["quote-sequence"] == "41")

        // A traceparent header reaches the reply (the worker copies it from the event's record).
        let traced = try await Curl.call(stack.url(session: "s-trace"), body: Bodies.quote(),
                                         headers: ["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"])
        #expect(traced.status == 200)

        // The logs name sessions and statuses, never an address or a cart.
        let logs = stack.logBook.lines.withLock { $0 }.joined(separator: "\n")
        #expect(logs.contains("s-update"))
        #expect(!logs.contains("Cupertino") && !logs.contains("95014") && !logs.contains("T-shirt"))

        let metrics = try await Curl.call("\(stack.base)/metrics", method: "GET")
        #expect(metrics.status == 200)
        #expect(metrics.text.contains("shipquote_gateway_requests_total{route=\"quote\",status=\"204\"} 1"))
        let count = metrics.text.split(separator: "\n").first { $0.hasPrefix("shipquote_gateway_quote_duration_seconds_count ") }
            .flatMap { Int($0.split(separator: " ").last!) }
        #expect((count ?? 0) >= 7, "the seven calls here and the stack's warm-up: \(count ?? -1)")
        #expect(metrics.text.contains("shipquote_gateway_in_flight 0"))
    }

    @Test func badRequestsAreRefusedBeforeAnythingIsProduced() async throws {
        guard Curl.path != nil else { Issue.record("curl is not installed (apt-get install curl)"); return }
        let stack = try await GatewayStack(worker: false)
        defer { Task { await stack.stop() } }
        let url = stack.url(session: "s-bad")

        let malformed = try await Curl.call(url, body: Array("{\"currency\": \"USD\",".utf8))
        #expect(malformed.status == 400)
        guard case .object(let m)? = malformed.json else { Issue.record("400 without JSON"); return }
        #expect(m["error"] == .string("not_json"))

        let missing = try await Curl.call(url, body: Array("{\"currency\":\"USD\",\"trigger\":\"address_changed\",\"shipping_address\":{},\"cart\":{}}".utf8))
        #expect(missing.status == 400)
        guard case .object(let f)? = missing.json else { Issue.record("400 without JSON"); return }
        #expect(f["error"] == .string("missing_field"))
        #expect(f["field"] == .string("payment_method_type"))

        var wrongCurrency = String(decoding: Bodies.quote(), as: UTF8.self)
        wrongCurrency = wrongCurrency.replacingOccurrences(of: "\"currency\":\"USD\",\"value\"", with: "\"currency\":\"JPY\",\"value\"")
        let mismatch = try await Curl.call(url, body: Array(wrongCurrency.utf8))
        #expect(mismatch.status == 400)
        #expect(mismatch.text.contains("cart.items[0].unit_amount"))

        // Contract 1.1's shipping profile members are checked like every other, naming the member.
        for (size, code) in [("{\"length\":600,\"width\":400,\"height\":-1}", "invalid_field"),
                             ("{\"length\":600,\"width\":400,\"height\":100001}", "over_limit")] {
            let body = String(decoding: Bodies.quote(), as: UTF8.self)
                .replacingOccurrences(of: "\"weight_grams\":300", with: "\"weight_grams\":300,\"dimensions_mm\":\(size)")
            let answer = try await Curl.call(url, body: Array(body.utf8))
            #expect(answer.status == 400, "\(answer.status) \(answer.text)")
            guard case .object(let a)? = answer.json else { Issue.record("400 without JSON"); return }
            #expect(a["error"] == .string(code))
            #expect(a["field"] == .string("cart.items[0].dimensions_mm.height"))
        }

        let gatewayField = try await Curl.call(url, body: Array("{\"reply_by\":\"2026-10-10T12:00:00Z\"}".utf8))
        #expect(gatewayField.status == 400 && gatewayField.text.contains("\"field\":\"reply_by\""))

        let badTimeout = try await Curl.call(url, body: Bodies.quote(), headers: ["Request-Timeout": "soon"])
        #expect(badTimeout.status == 400 && badTimeout.text.contains("Request-Timeout"))

        // Refused by its Content-Length. With `Expect: 100-continue` the body is never sent;
        // without, it is read and dropped, so that curl, still sending, reads the 413 and not a
        // reset (`BoundsTests` shows both at the socket).
        let oversized = try await Curl.call(url, body: [UInt8](repeating: UInt8(ascii: " "), count: 300 * 1024),
                                            headers: ["Expect": "100-continue"])
        #expect(oversized.status == 413, "\(oversized.status) \(oversized.text)")
        let sentAnyway = try await Curl.call(url, body: [UInt8](repeating: UInt8(ascii: " "), count: 300 * 1024))
        #expect(sentAnyway.status == 413, "\(sentAnyway.status) \(sentAnyway.text)")

        let get = try await Curl.call(url, method: "GET")
        #expect(get.status == 405 && get.headers["allow"] == "POST")
        #expect(try await Curl.call("\(stack.base)/v2/other", method: "GET").status == 404)
        #expect(try await Curl.call("\(stack.base)/healthz", method: "GET").status == 200)
        #expect(try await Curl.call("\(stack.base)/readyz", method: "GET").status == 200)
    }

    @Test func anOvertakenCallIsSupersededAndALateOneTimesOut() async throws {
        guard Curl.path != nil else { Issue.record("curl is not installed (apt-get install curl)"); return }
        let stack = try await GatewayStack(worker: false)  // nobody answers
        defer { Task { await stack.stop() } }
        let url = stack.url(session: "s-race")
        // The first call at `.high` too, as the second (`onceACallIsInFlight` says why).
        let first = Task(priority: .high) { try await Curl.call(url, body: Bodies.quote(), headers: ["Request-Timeout": "10"]) }
        let second = try await stack.onceACallIsInFlight { try await Curl.call(url, body: Bodies.quote(), headers: ["Request-Timeout": "0.5"]) }
        #expect(second.status == 504)
        #expect(second.text == "{\"error\":\"timed_out\",\"sequence\":2}")
        #expect(second.elapsed < .seconds(9))
        let overtaken = try await first.value
        #expect(overtaken.status == 409)
        #expect(overtaken.text == "{\"superseded_by\":2}")
        let metrics = stack.http.metrics.render()
        #expect(metrics.contains("shipquote_gateway_superseded_total 1"))
        #expect(metrics.contains("shipquote_gateway_timed_out_total 1"))
    }

    @Test func manyConcurrentSessionsEachGetTheirOwnAnswer() async throws {
        guard Curl.path != nil else { Issue.record("curl is not installed (apt-get install curl)"); return }
        let stack = try await GatewayStack(worker: true)
        defer { Task { await stack.stop() } }
        let sessions = (1...40).map { ("many-\($0)", $0 % 5 + 1) }
        let answers = try await withThrowingTaskGroup(of: (String, Int, CurlResult).self) { group in
            for (session, quantity) in sessions {
                group.addTask { (session, quantity, try await Curl.call(stack.url(session: session), body: Bodies.quote(quantity: quantity))) }
            }
            var all: [(String, Int, CurlResult)] = []
            for try await answer in group { all.append(answer) }
            return all
        }
        #expect(answers.count == 40)
        #expect(answers.allSatisfy { $0.2.status == 200 }, "\(answers.map { $0.2.status }.filter { $0 != 200 })")
        // Each answer is its own session's: the same as a session with the same cart got.
        let byQuantity = Dictionary(grouping: answers, by: \.1)
        for (_, group) in byQuantity { #expect(Set(group.map(\.2.body)).count == 1) }
        #expect(Set(answers.map(\.2.body)).count == 5)
        for (session, _, result) in answers.prefix(3) {
            #expect(result.json == (try stack.publishedUpdate(session: session, sequence: 1)))
        }
    }

    @Test func drainAnswersWhatIsInFlightAndStopsListening() async throws {
        guard Curl.path != nil else { Issue.record("curl is not installed (apt-get install curl)"); return }
        let stack = try await GatewayStack(worker: false)
        // The call at `.high` too, as the drain (`onceACallIsInFlight` says why).
        let waiting = Task(priority: .high) { try await Curl.call(stack.url(session: "s-drain"), body: Bodies.quote(), headers: ["Request-Timeout": "20"]) }
        try await stack.onceACallIsInFlight { await stack.http.drain(grace: .milliseconds(300)) }
        let answered = try await waiting.value
        #expect(answered.status == 503)
        #expect(try await Curl.call("\(stack.base)/healthz", method: "GET").status == 0)  // nothing listens any more
        stack.gateway.close()
    }
}
