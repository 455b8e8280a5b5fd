import Foundation
import QuoteContract
import QuoteGateway
import ShippingRules
import Testing
@testable import QuoteBench

/// The bench's own HTTP client reads exactly what a status line and headers say, refuses what is
/// no HTTP response, and makes each planned call into the request a merchant's backend would send.
@Suite struct HTTPLoadTests {
    private func bytes(_ text: String) -> ArraySlice<UInt8> { ArraySlice(Array(text.utf8)) }

    @Test func theStatusIsTheStatusLinesSecondWord() {
        #expect(HTTPConnection.status(bytes("HTTP/1.1 204 No Content\r\nDate: x")) == 204)
        #expect(HTTPConnection.status(bytes("HTTP/1.0 409 Conflict")) == 409)
        #expect(HTTPConnection.status(bytes("HTTP/1.1 200")) == 200)
        for bad in ["", "HTTP/1.1", "HTTP/2 200 OK", "SIP/2.0 200 OK", "HTTP/1.1 2x0 OK", "HTTP/1.1  200 OK"] {
            #expect(HTTPConnection.status(bytes(bad)) == nil, "\(bad)")
        }
    }

    @Test func aHeaderIsFoundByItsNameInAnyCaseAndTrimmed() {
        let head = bytes("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-LENGTH:  42 \r\nConnection: close")
        #expect(HTTPConnection.headerValue("content-length", head) == "42")
        #expect(HTTPConnection.headerValue("connection", head) == "close")
        #expect(HTTPConnection.headerValue("content-type", head) == "application/json")
        #expect(HTTPConnection.headerValue("retry-after", head) == nil)
    }

    @Test func theHeadEndsAtTheFirstBlankLine() {
        let response = Array("HTTP/1.1 204 No Content\r\nA: b\r\n\r\nrest\r\n\r\n".utf8)
        #expect(HTTPConnection.headerEnd(in: response, from: 0) == 29)
        #expect(HTTPConnection.headerEnd(in: Array("HTTP/1.1 200 OK\r\nA: b\r\n".utf8), from: 0) == nil)
        #expect(HTTPConnection.headerEnd(in: Array("\r\n\r".utf8), from: 0) == nil)
        #expect(HTTPConnection.headerEnd(in: [], from: 0) == nil)
    }

    @Test func aCallToAPortNobodyListensOnHasNoStatus() throws {
        // Bind a port, then close it: nothing listens there any more.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound)
        close(listener)
        let connection = HTTPConnection(port: UInt16(bigEndian: address.sin_port), timeoutSeconds: 1)
        #expect(connection.exchange(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)) == 0)
    }

    @Test func aPlannedCallBecomesThePOSTABackendSendsWithoutTheGatewaysMembers() throws {
        let now = Date(timeIntervalSince1970: 1_760_000_000)
        let event = BenchEvents.event(LoadPlan.Event(session: 7, sequence: 3), merchant: nil, occurredAt: now,
                                      replyBy: now.addingTimeInterval(10))
        let request = GatewayCalls.httpRequest(event)
        let end = try #require(HTTPConnection.headerEnd(in: request, from: 0))
        let head = String(decoding: request[..<end], as: UTF8.self)
        #expect(head.hasPrefix("POST /v1/sessions/b0000000-0000-4000-8000-000000000007/quote HTTP/1.1\r\n"))
        let body = Array(request[(end + 4)...])
        #expect(HTTPConnection.headerValue("content-length", request[..<end]) == String(body.count))
        guard case .object(let object) = try JSONReader().read(body) else { Issue.record("not an object"); return }
        #expect(object.members.map(\.key) == ["sequence", "payment_method_type", "trigger", "currency", "shipping_address", "cart"])
        #expect(object["sequence"] == .number("3"))
        #expect(object["trigger"] == .string("address_changed"))
    }

    @Test func theLibrarysAnswersGetTheStatusesTheHTTPGatewayGives() {
        let update = ShippingUpdate(summaryItems: [], shippingMethods: [])
        func reply(_ outcome: QuoteOutcome) -> QuoteGateway.Answer {
            .reply(QuoteReply(sessionID: "s", sequence: 1, outcome: outcome, computedAt: Date()))
        }
        #expect(GatewayCalls.status(reply(.update(update))) == 200)
        #expect(GatewayCalls.status(reply(.unserviceable([]))) == 200)
        #expect(GatewayCalls.status(reply(.keep)) == 204)
        #expect(GatewayCalls.status(reply(.rejected(QuoteRejection(code: "CURRENCY_NOT_PRICED", message: "no"))) ) == 422)
        #expect(GatewayCalls.status(.superseded(byNewerSequence: 2)) == 409)
    }
}
