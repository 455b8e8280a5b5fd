import Foundation

/// The demo's HTTP client: one blocking HTTP/1.1 POST with `Connection: close` to 127.0.0.1,
/// read to the server's close. Enough for the demo's calls to its own gateway; no TLS, no
/// redirects, no chunked bodies (the gateway sends Content-Length).
enum LoopbackHTTPClient {
    struct Response {
        let status: Int
        /// Header names in lower case.
        let headers: [String: String]
        let body: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func post(port: UInt16, path: String, body: [UInt8], headers: [(String, String)] = [],
                     timeoutSeconds: Int = 30) -> Result<Response, Failure> {
        #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return .failure(Failure(description: "socket: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return .failure(Failure(description: "connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")) }

        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let request = Array(head.utf8) + body
        var sent = 0
        while sent < request.count {
            #if os(Linux)
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            #endif
            guard n > 0 else { return .failure(Failure(description: "send: \(String(cString: strerror(errno)))")) }
            sent += n
        }

        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return .failure(Failure(description: "no answer within \(timeoutSeconds) s")) }
            if n == 0 { break }   // closed: the answer is complete
            received += chunk[..<n]
        }
        return parse(received)
    }

    static func parse(_ bytes: [UInt8]) -> Result<Response, Failure> {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            return .failure(Failure(description: "not an HTTP response"))
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first.map { $0.split(separator: " ") }.flatMap { $0.count >= 2 ? Int($0[1]) : nil }
        guard let status else { return .failure(Failure(description: "no status line")) }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return .success(Response(status: status, headers: headers, body: Array(bytes[(end + 4)...])))
    }
}
