import Foundation
import QuoteBench
import QuoteContract
import QuoteHTTPGateway

/// The demo's checkout again as a merchant's backend plays it: one `POST /v1/sessions/{id}/quote`
/// per step to `shipquote gateway` (in-process, on 127.0.0.1), over a real socket, through the same
/// broker and worker. Prints each call as curl would make it and the status and body it got.
struct DemoHTTPPlay {
    let port: UInt16
    let sessionID: String

    /// Members of the event the gateway sets itself (or takes from the path); the rest is the body.
    private static let setByGateway: Set<String> = ["version", "session_id", "occurred_at", "reply_by", "event_id"]

    /// The body a backend sends for this event: the contract's event without what the gateway sets.
    static func body(of eventBytes: [UInt8]) -> [UInt8] {
        guard case .object(let event)? = try? JSONReader().read(eventBytes) else { return eventBytes }
        return JSONWriter.encode(.object(JSONObject(event.members.filter { !setByGateway.contains($0.key) })))
    }

    var path: String { "/v1/sessions/\(sessionID)/quote" }

    func announce(_ event: AddressChangeEvent, _ note: String) {
        Output.line("▶ seq \(event.sequence)  \(event.trigger.rawValue)  \(DemoCheckout.describe(event.shippingAddress))   (\(note))")
    }

    func step(_ event: AddressChangeEvent, note: String) {
        announce(event, note)
        call(Self.body(of: event.encode()))
    }

    func malformed(_ bytes: [UInt8], sequence: Int64, note: String) {
        Output.line("▶ seq \(sequence)  malformed body   (\(note))")
        call(Self.body(of: bytes))
    }

    /// One call: the curl command that makes it, then what came back.
    func call(_ body: [UInt8]) {
        Output.line("  $ curl -X POST http://127.0.0.1:\(port)\(path) -H 'Content-Type: application/json' -d '\(String(decoding: body, as: UTF8.self))'")
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let connection = HTTPConnection(port: port, timeoutSeconds: 30)
        defer { connection.close() }
        if let response = connection.fetch(Array(head.utf8) + body) {
            let outcome = response.header("quote-outcome")
            Output.line("◀ HTTP \(response.status)\(outcome.map { "  Quote-Outcome: \($0)" } ?? "")   (\(Self.meaning(response.status, outcome: outcome)))")
            if !response.body.isEmpty { Output.line("  " + String(decoding: response.body, as: UTF8.self)) }
        } else {
            Output.line("◀ no answer from 127.0.0.1:\(port) within 30 s")
        }
        Output.line()
    }

    /// What the backend does with the answer (docs/openapi.yaml).
    static func meaning(_ status: Int, outcome: String?) -> String {
        switch (status, outcome) {
        case (200, "unserviceable"): "hand the update to the SDK: the sheet shows the error and blocks payment"
        case (200, _): "hand the update to the SDK"
        case (204, _): "no body: return nil to the SDK, the sheet keeps what it shows"
        case (400, _): "refused before anything reached Kafka: the field is named"
        case (409, _): "overtaken by a newer call for this session: drop it, the newer answer is the sheet's"
        case (422, _): "rejected: return nil and log the reason"
        case (504, _): "no reply by the deadline: return nil"
        default: "return nil to the SDK"
        }
    }
}
