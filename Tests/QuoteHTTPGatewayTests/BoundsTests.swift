import Foundation
import Testing

/// The gateway's bounds: calls in flight, header size, and a stalled client that must not hold the server.
@Suite(.serialized) struct BoundsTests {
    @Test func boundsAreEnforcedAndAStalledClientHoldsNothing() async throws {
        guard Curl.path != nil else { Issue.record("curl is not installed (apt-get install curl)"); return }
        let stack = try await GatewayStack(worker: false) { config in
            config.maxInFlight = 1
            config.connectionTimeoutSeconds = 1
            config.maxHeaderBytes = 8_192
        }
        defer { Task { await stack.stop() } }

        // A client that sends half a request and stalls.
        let stalled = try RawClient(port: stack.http.address.port)
        stalled.send("POST /v1/sessions/stall/quote HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"cur")
        let health = try await Curl.call("\(stack.base)/healthz", method: "GET")
        #expect(health.status == 200)

        // The in-flight limit: one call waits, the next is refused at once.
        // The first call at `.high` too, as the refused one (`onceACallIsInFlight` says why).
        let first = Task(priority: .high) { try await Curl.call(stack.url(session: "bound-1"), body: Bodies.quote(), headers: ["Request-Timeout": "6"]) }
        let refused = try await stack.onceACallIsInFlight { try await Curl.call(stack.url(session: "bound-2"), body: Bodies.quote()) }
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] == "1")
        #expect(refused.text.contains("\"error\":\"overloaded\""))
        #expect(try await first.value.status == 504)

        // Headers beyond the limit.
        let huge = try await Curl.call(stack.url(session: "bound-3"), body: Bodies.quote(), headers: ["X-Padding": String(repeating: "a", count: 20_000)])
        #expect(huge.status == 431, "got \(huge.status)")

        // The stalled connection was closed by the idle timeout (1 s) meanwhile.
        #expect(stalled.awaitClosed(timeout: 5))
        let metrics = stack.http.metrics.render()
        #expect(metrics.contains("shipquote_gateway_overloaded_total 1"))
    }
}

/// A bare TCP client, to stall mid-request as a slow or broken client would.
final class RawClient {
    private let fd: Int32

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(fd) }

    func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }

    /// Whether the server closed the connection (EOF, or a reset) within `timeout` seconds.
    func awaitClosed(timeout: TimeInterval) -> Bool {
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let n = read(fd, &buffer, buffer.count)
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
        return false
    }
}
