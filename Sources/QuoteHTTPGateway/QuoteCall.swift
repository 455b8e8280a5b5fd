import Foundation
import QuoteContract
import QuoteGateway
import ShippingRules

/// A `POST /v1/sessions/{session_id}/quote` body turned into the contract's event, and the
/// gateway's answer turned into what the merchant's backend hands to the SDK.
enum QuoteCall {
    /// Members the gateway sets itself; a body that carries one is refused (400).
    static let gatewayMembers = ["version", "occurred_at", "reply_by"]

    /// A 400 body: `{"error": code, "field": path or null, "message": words}`. Never repeats a value.
    static func badRequest(_ code: String, field: String?, _ message: String) -> GatewayResponse {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.field("error", code)
        w.field("field", orNull: field)
        w.field("message", message)
        w.endObject()
        return .json(400, w.bytes)
    }

    /// The body read strictly (numbers keep their literal text: amounts never pass through a float).
    static func readBody(_ body: [UInt8], maxBytes: Int) -> Result<JSONObject, GatewayResponse> {
        let root: JSONValue
        do { root = try JSONReader(maxBytes: maxBytes, maxDepth: EventLimits.maxDepth).read(body) } catch {
            return .failure(badRequest("not_json", field: nil, "the body is not JSON: \(error)"))
        }
        guard case .object(let object) = root else {
            return .failure(badRequest("not_json", field: nil, "the body must be a JSON object"))
        }
        for name in gatewayMembers where object[name] != nil {
            return .failure(badRequest("gateway_field", field: name, "\(name) is set by the gateway; leave it out"))
        }
        return .success(object)
    }

    /// The body's `sequence` when it has one (validated later by the contract's decoder), else nil.
    static func givenSequence(_ body: JSONObject) -> Int64?? {
        guard let value = body["sequence"], !value.isNull else { return .some(nil) }
        if case .number(let literal) = value, let sequence = Int64(literal) { return .some(sequence) }
        return nil  // present but not an integer: the decoder names it
    }

    /// The contract's event for this call: the body's members, the path's session, the sequence,
    /// `occurred_at` now and `reply_by` at the deadline; validated by the contract's own decoder.
    static func event(body: JSONObject, sessionID: String, sequence: Int64?, now: Date, replyBy: Date) -> Result<AddressChangeEvent, GatewayResponse> {
        var members: [JSONMember] = [JSONMember("version", .integer(AddressChangeEvent.currentVersion)),
                                     JSONMember("session_id", .string(sessionID))]
        if let sequence { members.append(JSONMember("sequence", .integer(sequence))) }
        members.append(JSONMember("occurred_at", .string(RFC3339.format(now))))
        members.append(JSONMember("reply_by", .string(RFC3339.format(replyBy))))
        for member in body.members where member.key != "session_id" && (sequence == nil || member.key != "sequence") {
            members.append(member)
        }
        if let given = body["session_id"], given != .string(sessionID) {
            return .failure(badRequest("key_mismatch", field: "session_id", "session_id in the body differs from the path's; leave it out"))
        }
        let bytes = JSONWriter.encode(.object(JSONObject(members)))
        switch AddressChangeEvent.decode(bytes, key: Array(sessionID.utf8)) {
        case .success(let event): return .success(event)
        case .failure(let rejection):
            return .failure(badRequest(rejection.code.rawValue, field: rejection.field, rejection.message))
        }
    }

    /// How a call ended, as the merchant's backend receives it (see docs/openapi.yaml):
    /// `update` 200 with the update; `keep` 204 (the SDK's nil); `unserviceable` 200 with the update
    /// whose `errors` the SDK shows on the sheet; `rejected` 422; superseded 409.
    static func response(_ answer: QuoteGateway.Answer) -> GatewayResponse {
        switch answer {
        case .superseded(let newer):
            var w = JSONWriter(capacity: 64)
            w.beginObject()
            w.field("superseded_by", newer)
            w.endObject()
            return .json(409, w.bytes)
        case .reply(let reply):
            var headers: [(name: String, value: String)] = [("Quote-Outcome", reply.outcome.kind.rawValue),
                                                            ("Quote-Sequence", String(reply.sequence))]
            if let rules = reply.rulesVersion { headers.append(("Rules-Version", rules)) }
            switch reply.outcome {
            case .keep:
                return GatewayResponse(status: 204, headers: headers)
            case .rejected(let rejection):
                var w = JSONWriter(capacity: 256)
                w.beginObject()
                w.field("code", rejection.code)
                w.field("message", rejection.message)
                w.field("rejection", rejection.wireText)
                w.endObject()
                return .json(422, w.bytes, headers: headers)
            case .update, .unserviceable:
                return .json(200, updateJSON(reply), headers: headers)
            }
        }
    }

    /// The reply's `update` member exactly as the contract writes it.
    static func updateJSON(_ reply: QuoteReply) -> [UInt8] {
        guard case .object(let object)? = try? JSONReader().read(reply.encode()), let update = object["update"] else { return Array("null".utf8) }
        return JSONWriter.encode(update)
    }

    static func failure(_ error: GatewayError) -> GatewayResponse {
        var w = JSONWriter(capacity: 128)
        w.beginObject()
        let status: Int
        switch error {
        case .timedOut(_, let sequence):
            status = 504
            w.field("error", "timed_out")
            w.field("sequence", sequence)
        case .kafka, .clientFailed, .cancelled, .closed:
            status = 503
            w.field("error", "unavailable")
            w.field("message", "\(error)")
        }
        w.endObject()
        return .json(status, w.bytes)
    }
}
