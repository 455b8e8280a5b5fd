import Foundation
import QuoteHTTPGateway
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

    /// A body over `max-body-bytes` sent without waiting for `100 Continue` is read to its end and
    /// dropped before the 413: answered and closed after its headers, the client's next write met
    /// a reset and curl reported no answer at all. A body more than `discardedBodyBytes` over, or one
    /// whose client waits to send it, is answered after its headers.
    @Test func anOversizedBodyIsReadAndDroppedBeforeIts413UpToABound() async throws {
        let stack = try await GatewayStack(worker: false)
        defer { Task { await stack.stop() } }
        let limit = 262_144   // the default `max-body-bytes`
        let path = "/v1/sessions/too-large/quote"
        func head(length: Int, expect: Bool = false) -> String {
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n"
                + (expect ? "Expect: 100-continue\r\n" : "") + "\r\n"
        }

        // Headers first, then a pause (the old gateway answered and closed here), then the body.
        let sender = try RawClient(port: stack.http.address.port)
        sender.send(head(length: limit + 40_000))
        try await Task.sleep(for: .milliseconds(300))
        let body = [UInt8](repeating: UInt8(ascii: " "), count: limit + 40_000)
        #expect(sender.sendAll(body), "the body could not be sent: \(String(cString: strerror(errno)))")
        let answer = sender.readHead(timeout: 5)
        #expect(answer?.hasPrefix("HTTP/1.1 413 ") == true, "\(answer ?? "no answer")")
        #expect(answer?.contains("\"error\":\"too_large\"") == true, "\(answer ?? "no answer")")

        // Waiting for 100 Continue: refused before a byte is sent.
        let waiting = try RawClient(port: stack.http.address.port)
        waiting.send(head(length: limit + 1, expect: true))
        let refused = waiting.readHead(timeout: 5)
        #expect(refused?.hasPrefix("HTTP/1.1 413 ") == true, "\(refused ?? "no answer")")

        // Beyond the bound: refused before a byte is sent.
        let huge = try RawClient(port: stack.http.address.port)
        huge.send(head(length: limit + QuoteHTTPGateway.discardedBodyBytes + 1))
        let cut = huge.readHead(timeout: 5)
        #expect(cut?.hasPrefix("HTTP/1.1 413 ") == true, "\(cut ?? "no answer")")

        // Just within the bound: read and dropped, then answered.
        let within = try RawClient(port: stack.http.address.port)
        within.send(head(length: limit + QuoteHTTPGateway.discardedBodyBytes))
        #expect(within.sendAll([UInt8](repeating: UInt8(ascii: " "), count: limit + QuoteHTTPGateway.discardedBodyBytes)))
        let late = within.readHead(timeout: 5)
        #expect(late?.hasPrefix("HTTP/1.1 413 ") == true, "\(late ?? "no answer")")

        // A chunked body tells no length: read to its end (in 4 KiB chunks), then refused.
        let streamed = try RawClient(port: stack.http.address.port)
        streamed.send("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Array("1000\r\n".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: 0x1000) + Array("\r\n".utf8)
        for _ in 0..<(limit / 0x1000 + 10) { #expect(streamed.sendAll(chunk)) }
        try await Task.sleep(for: .milliseconds(300))   // time for an early answer to arrive, were there one
        #expect(!streamed.hasBytes, "answered before the body's end")
        #expect(streamed.sendAll(Array("0\r\n\r\n".utf8)))
        let ended = streamed.readHead(timeout: 5)
        #expect(ended?.hasPrefix("HTTP/1.1 413 ") == true, "\(ended ?? "no answer")")
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

    /// Sends every byte, as a client sending a body does; false when the connection refused them
    /// (a reset, or closed), with `errno` saying why.
    func sendAll(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
    }

    /// Whether the server has sent something not read yet.
    var hasBytes: Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// The answer's head and as much of its body as came with it: what is read until the blank
    /// line and `Content-Length` bytes after it, or until the server closes, within `timeout`.
    func readHead(timeout: TimeInterval) -> String? {
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var got: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            got += buffer[..<n]
            let text = String(decoding: got, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let length = text[..<end.lowerBound].split(separator: "\r\n")
                    .first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length { return text }
            }
        }
        return got.isEmpty ? nil : String(decoding: got, as: UTF8.self)
    }

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
