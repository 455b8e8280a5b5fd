import Foundation

/// `shipquote healthcheck`: one HTTP/1.1 GET to the worker's own operations endpoint, for a
/// container healthcheck (the runtime image has no curl). Exit 0 on 200, 1 on anything else
/// (another status, refused, timed out, a bad flag): Docker reserves exit 2 in a healthcheck.
enum HealthcheckCommand {
    static let help = """
    usage: shipquote healthcheck [--url http://127.0.0.1:9464/healthz] [--timeout SECONDS]

    GETs the URL over plain HTTP/1.1 and exits 0 when it answers 200, 1 otherwise (another status,
    nothing listening, no answer within --timeout, default 3 s). Only 127.0.0.1 and localhost: it
    checks the worker or the gateway in its own container or pod, as Docker's HEALTHCHECK and
    compose's healthcheck run it (`shipquote run --metrics-listen` and `shipquote gateway --listen`
    serve /healthz and /readyz; a gateway serving HTTPS is probed by the orchestrator instead).
    """

    static let defaultURL = "http://127.0.0.1:9464/healthz"

    static func run(_ args: [String]) throws {
        let a: Arguments
        do { a = try Arguments(args, valued: ["--url", "--timeout"], flags: ["--help"]) } catch {
            unhealthy("\(error)\n\n\(help)")
        }
        if a.has("--help") { return Output.line(help) }
        let url = a.value("--url") ?? defaultURL
        guard let target = Target(url) else {
            unhealthy("--url expects http://127.0.0.1:PORT/PATH or http://localhost:PORT/PATH, got \(url)")
        }
        let timeoutText = a.value("--timeout") ?? "3"
        guard let timeout = Double(timeoutText), timeout > 0, timeout <= 3600 else {
            unhealthy("--timeout expects seconds above 0, got \(timeoutText)")
        }
        switch get(target, timeout: timeout) {
        case .success(let response) where response.status == 200:
            Output.line("healthy: \(url) answered 200")
            exit(0)
        case .success(let response):
            unhealthy("\(url) answered \(response.status)\(response.body.isEmpty ? "" : ": " + response.body)")
        case .failure(let error):
            unhealthy("\(url): \(error.description)")
        }
    }

    /// Says why on stderr and exits 1.
    private static func unhealthy(_ reason: String) -> Never {
        FileHandle.standardError.write(Data("shipquote: healthcheck: unhealthy: \(reason)\n".utf8))
        exit(1)
    }

    /// The loopback URL to ask: always connected over IPv4 127.0.0.1, never through a resolver.
    struct Target {
        let hostHeader: String
        let port: UInt16
        let path: String

        init?(_ text: String) {
            guard let components = URLComponents(string: text), components.scheme?.lowercased() == "http",
                  let host = components.host?.lowercased(), host == "127.0.0.1" || host == "localhost",
                  components.user == nil, components.password == nil else { return nil }
            let port = components.port ?? 80
            guard (1...65535).contains(port) else { return nil }
            self.port = UInt16(port)
            hostHeader = "\(host):\(port)"
            let query = components.percentEncodedQuery.map { "?" + $0 } ?? ""
            path = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath) + query
        }
    }

    struct Response {
        let status: Int
        /// The body's first line, at most 200 characters (the probe's reasons).
        let body: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// One GET with `Connection: close`; the whole exchange within `timeout` seconds.
    static func get(_ target: Target, timeout: Double) -> Result<Response, Failure> {
        let deadline = Date().addingTimeInterval(timeout)
        func remainingMilliseconds() -> Int32 { Int32(max(0, min(Double(Int32.max), deadline.timeIntervalSinceNow * 1000))) }
        func failure(_ what: String) -> Result<Response, Failure> {
            .failure(Failure(description: "\(what)\(errno == 0 ? "" : ": " + String(cString: strerror(errno)))"))
        }

        #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return failure("socket") }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = target.port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected != 0 {
            guard errno == EINPROGRESS else { return failure("connect to 127.0.0.1:\(target.port)") }
            guard wait(fd, for: Int16(POLLOUT), milliseconds: remainingMilliseconds()) else {
                errno = 0
                return failure("connect to 127.0.0.1:\(target.port) timed out")
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else {
                errno = error
                return failure("connect to 127.0.0.1:\(target.port)")
            }
        }

        let request = Array("GET \(target.path) HTTP/1.1\r\nHost: \(target.hostHeader)\r\nUser-Agent: shipquote-healthcheck\r\nAccept: */*\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            guard wait(fd, for: Int16(POLLOUT), milliseconds: remainingMilliseconds()) else {
                errno = 0
                return failure("sending the request timed out")
            }
            #if os(Linux)
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            #endif
            guard n > 0 else { return failure("send") }
            sent += n
        }

        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while received.count < 65536 {
            guard wait(fd, for: Int16(POLLIN), milliseconds: remainingMilliseconds()) else { break }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard n > 0 else { break }   // the server closed: the response is complete
            received += chunk[..<n]
            if complete(received) { break }
        }
        return parse(received)
    }

    /// The status line's code and the body's first line; a failure when no status line arrived.
    static func parse(_ bytes: [UInt8]) -> Result<Response, Failure> {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let statusLine = text.split(separator: "\r\n", maxSplits: 1, omittingEmptySubsequences: false).first,
              text.contains("\r\n") else {
            return .failure(Failure(description: bytes.isEmpty ? "no answer before the timeout or the close" : "not an HTTP response"))
        }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            return .failure(Failure(description: "not an HTTP/1.x status line: \(statusLine.prefix(80))"))
        }
        let body = text.range(of: "\r\n\r\n").map { text[$0.upperBound...] } ?? ""
        let firstLine = body.split(separator: "\n", maxSplits: 1).first.map { String($0.prefix(200)) } ?? ""
        return .success(Response(status: status, body: firstLine.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// Whether the headers and a `Content-Length` body have all arrived (a server that keeps the
    /// connection open despite `Connection: close` then costs no wait).
    private static func complete(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let headers = text[..<end.lowerBound].lowercased().split(separator: "\r\n")
        guard let length = headers.first(where: { $0.hasPrefix("content-length:") })
            .flatMap({ Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }) else { return false }
        return text[end.upperBound...].utf8.count >= length
    }

    /// Polls one descriptor; false on timeout or error.
    private static func wait(_ fd: Int32, for events: Int16, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let n = poll(&entry, 1, milliseconds)
            if n < 0 && errno == EINTR { continue }
            return n > 0
        }
    }
}
