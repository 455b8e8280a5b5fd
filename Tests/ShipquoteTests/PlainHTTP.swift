import Foundation

/// A GET over a plain socket, on the calling thread. For a test that must ask at a moment it
/// chooses (right after a signal): an `await` could leave it waiting for a pool thread while
/// the moment passes.
enum PlainHTTP {
    /// The status of `GET path` on 127.0.0.1:`port`; 0 when nothing answered within 5 s.
    static func status(port: UInt16, path: String) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return 0 }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return 0 }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !response.contains(UInt8(ascii: "\n")) {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            response += buffer[0..<n]
        }
        // "HTTP/1.1 503 Service Unavailable"
        let statusLine = String(decoding: response.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self).split(separator: " ")
        return statusLine.count >= 2 && statusLine[0].hasPrefix("HTTP/") ? Int(statusLine[1]) ?? 0 : 0
    }
}
