import Foundation
#if canImport(Glibc)
import Glibc
private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
import Darwin
private let streamSocket = SOCK_STREAM
#endif

// The C calls whose names the connection's own members shadow.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
private func openStreamSocket() -> Int32 { socket(AF_INET, streamSocket, 0) }
private func connectDescriptor(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { connect(fd, address, length) }

/// One kept-alive HTTP/1.1 connection to 127.0.0.1, used by one thread at a time: a request's
/// bytes out, blocking, then the response read until its `Content-Length` is in. The bench's
/// callers and `shipquote demo`'s HTTP steps both use it.
///
/// The only raw memory here is the receive buffer and the request's bytes, each borrowed for the
/// one `send`/`recv` call that uses it (`withUnsafe…Bytes`); nothing keeps a pointer past the call.
public final class HTTPConnection {
    /// One response: its status, head (status line and headers) and body.
    public struct Response: Sendable {
        public let status: Int
        public let head: [UInt8]
        public let body: [UInt8]

        /// A header's value (the first of that name, case-insensitive), trimmed.
        public func header(_ lowercaseName: String) -> String? { HTTPConnection.headerValue(lowercaseName, head[...]) }
    }

    private let port: UInt16
    private let timeoutSeconds: Int
    private var socket: Int32 = -1
    /// Bytes read but not yet parsed (the start of a response).
    private var received: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 16_384)

    /// Connects on the first request; a receive waits at most `timeoutSeconds`.
    public init(port: UInt16, timeoutSeconds: Int) {
        self.port = port
        self.timeoutSeconds = timeoutSeconds
    }

    deinit { close() }

    /// Sends a whole request and returns the response's status; 0 when no response came
    /// (connection refused or reset, timed out). A kept-alive connection the server closed
    /// meanwhile is reopened once.
    func exchange(_ request: [UInt8]) -> Int {
        exchange(request, keepingBody: false)?.status ?? 0
    }

    /// Sends a whole request and returns the whole response; nil when none came.
    public func fetch(_ request: [UInt8]) -> Response? { exchange(request, keepingBody: true) }

    /// `keepingBody` false spares the bench's callers a copy of every head and body.
    private func exchange(_ request: [UInt8], keepingBody: Bool) -> Response? {
        for attempt in 0..<2 {
            let reused = socket >= 0
            if !reused && !open() { return nil }
            if sendAll(request), let response = readResponse(keepingBody: keepingBody) { return response }
            close()
            if !reused || attempt == 1 { return nil }
        }
        return nil
    }

    /// Connects now rather than on the first request (which then pays for it); a failure is retried then.
    func connect() { if socket < 0 { _ = open() } }

    public func close() {
        if socket >= 0 { closeDescriptor(socket) }
        socket = -1
        received.removeAll(keepingCapacity: true)
    }

    private func open() -> Bool {
        let fd = openStreamSocket()
        guard fd >= 0 else { return false }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var wait = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connectDescriptor(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { closeDescriptor(fd); return false }
        socket = fd
        return true
    }

    private func sendAll(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(socket, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { if n < 0 && errno == EINTR { continue }; return false }
            sent += n
        }
        return true
    }

    /// Reads one response; nil when the connection ended or timed out before all of it came.
    private func readResponse(keepingBody: Bool) -> Response? {
        var headerEnd: Int? = Self.headerEnd(in: received, from: 0)
        while headerEnd == nil {
            let searchFrom = max(0, received.count - 3)
            guard receiveMore() else { return nil }
            headerEnd = Self.headerEnd(in: received, from: searchFrom)
        }
        let head = received[..<headerEnd!]
        guard let status = Self.status(head) else { return nil }
        let length = Self.headerValue("content-length", head).flatMap { Int($0) } ?? 0
        let total = headerEnd! + 4 + length
        while received.count < total { guard receiveMore() else { return nil } }
        let closing = Self.headerValue("connection", head)?.lowercased() == "close"
        let response = keepingBody ? Response(status: status, head: Array(head), body: Array(received[(headerEnd! + 4)..<total]))
                                   : Response(status: status, head: [], body: [])
        received.removeFirst(total)
        if closing { close() }
        return response
    }

    private func receiveMore() -> Bool {
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if n > 0 { received.append(contentsOf: chunk[..<n]); return true }
            if n < 0 && errno == EINTR { continue }
            return false
        }
    }

    /// The offset of the blank line's `\r\n\r\n`, searching from `start`.
    static func headerEnd(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var i = start
        while i + 3 < bytes.count {
            if bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 { return i }
            i += 1
        }
        return nil
    }

    /// `HTTP/1.1 204 No Content` → 204.
    static func status(_ head: ArraySlice<UInt8>) -> Int? {
        let line = head.prefix { $0 != 13 }
        let parts = line.split(separator: 32, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].starts(with: Array("HTTP/1.".utf8)) else { return nil }
        return BenchEvents.decimal(parts[1])
    }

    /// A header's value (the first of that name, case-insensitive), trimmed.
    static func headerValue(_ lowercaseName: String, _ head: ArraySlice<UInt8>) -> String? {
        for line in head.split(separator: 10) {
            guard let colon = line.firstIndex(of: 58) else { continue }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            guard name == lowercaseName else { continue }
            return String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return nil
    }
}
