import Foundation

/// The counts of a `shipquote run` process, read from its /metrics on 127.0.0.1 (the bench's
/// only HTTP: a plain GET over a socket, so the bench needs no HTTP client library).
enum MetricsScrape {
    /// The body of `GET /metrics` from `127.0.0.1:port`, or nil (1 s limit on every step).
    static func get(port: UInt16) -> String? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var limit = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian   // 127.0.0.1 only
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let request = Array("GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else { return nil }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        // Bounded: at most 16 MiB, and each read waits at most 1 s.
        while response.count < 16 << 20 {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            response += chunk[0..<n]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.") && text.contains(" 200 "), let body = text.range(of: "\r\n\r\n") else { return nil }
        return String(text[body.upperBound...])
    }

    /// The port of a `HOST:PORT` (or `[v6]:PORT`) listen address.
    static func port(of address: String) -> UInt16? {
        address.split(separator: ":").last.flatMap { UInt16($0) }
    }

    /// A worker's counts from its Prometheus text.
    static func counts(prometheus text: String) -> ServiceCounts {
        var c = ServiceCounts()
        for line in text.split(separator: "\n") where line.hasPrefix("shipquote_") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            let series = line[..<space]
            let n = Int(value)
            if series == "shipquote_events_received_total" { c.eventsIn += n }
            else if series == "shipquote_dead_letters_total" { c.deadLetters += n }
            else if let label = label(series, "shipquote_events_total", "outcome") { c.outcomes[label, default: 0] += n }
            else if let label = label(series, "shipquote_dropped_events_total", "reason") { c.drops[label, default: 0] += n }
        }
        c.finished = c.outcomes.values.reduce(0, +) + c.drops.values.reduce(0, +)
        return c
    }

    /// The value of the one label of `name{label="value"}`, or nil for another series.
    private static func label(_ series: Substring, _ name: String, _ label: String) -> String? {
        let prefix = "\(name){\(label)=\""
        guard series.hasPrefix(prefix), series.hasSuffix("\"}") else { return nil }
        return String(series.dropFirst(prefix.count).dropLast(2))
    }
}
