/// Where an endpoint listens: `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (every interface).
/// Port 0 asks the system for a free port; the endpoint reports which one it got.
public struct HTTPListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public init(parsing text: String) throws(HTTPEndpointError) {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw .invalidAddress(text, reason: "an IPv6 host needs its closing ]")
            }
            hostPart = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .invalidAddress(text, reason: "expected :PORT after ]") }
            portPart = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw .invalidAddress(text, reason: "expected HOST:PORT") }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            guard !hostPart.contains(":") else { throw .invalidAddress(text, reason: "write an IPv6 host as [HOST]:PORT") }
        }
        guard let port = UInt16(portPart) else {
            throw .invalidAddress(text, reason: "the port must be a number from 0 to 65535")
        }
        self.host = hostPart.isEmpty ? "0.0.0.0" : String(hostPart)
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
