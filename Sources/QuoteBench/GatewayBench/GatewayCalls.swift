import Foundation
import QuoteContract
import QuoteGateway
import Synchronization

/// One planned call both ways: as the HTTP request a merchant's backend sends the gateway, and as
/// the gateway library's `quote`, each answered with the HTTP status the gateway would give.
enum GatewayCalls {
    /// Members the HTTP gateway sets itself (a body carrying one is refused).
    static let gatewayMembers: Set<String> = ["version", "session_id", "occurred_at", "reply_by"]

    /// `POST /v1/sessions/{id}/quote` with the event's members less the gateway's, sequence kept.
    static func httpRequest(_ event: AddressChangeEvent) -> [UInt8] {
        guard case .object(let object)? = try? JSONReader().read(event.encode()) else { preconditionFailure("an encoded event is JSON") }
        let body = JSONWriter.encode(.object(JSONObject(object.members.filter { !gatewayMembers.contains($0.key) })))
        let head = "POST /v1/sessions/\(event.sessionID)/quote HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// Awaits `gateway.quote` on this thread and returns the status the HTTP gateway answers it
    /// with: 200 update or unserviceable, 204 keep, 409 superseded, 422 rejected, 504 timed out,
    /// 503 anything else.
    static func quote(_ gateway: QuoteGateway, _ event: AddressChangeEvent) -> Int {
        let answer = AnswerSlot()
        Task {
            let status: Int
            do throws(GatewayError) { status = Self.status(try await gateway.quote(event)) } catch {
                if case .timedOut = error { status = 504 } else { status = 503 }
            }
            answer.status.store(status, ordering: .releasing)
            answer.done.signal()
        }
        answer.done.wait()
        return answer.status.load(ordering: .acquiring)
    }

    static func status(_ answer: QuoteGateway.Answer) -> Int {
        switch answer {
        case .superseded: 409
        case .reply(let reply):
            switch reply.outcome {
            case .update, .unserviceable: 200
            case .keep: 204
            case .rejected: 422
            }
        }
    }

    private final class AnswerSlot: Sendable {
        let status = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
    }
}
