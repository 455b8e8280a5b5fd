/// What the gateway answers one HTTP request with: status, headers and body.
/// An `Error` too, so that a refusal can travel in a `Result` beside what a step made.
public struct GatewayResponse: Error, Sendable, Equatable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func == (a: GatewayResponse, b: GatewayResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.headers.map(\.name) == b.headers.map(\.name)
            && a.headers.map(\.value) == b.headers.map(\.value)
    }

    static func json(_ status: Int, _ body: [UInt8], headers: [(name: String, value: String)] = []) -> GatewayResponse {
        GatewayResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: body)
    }

    static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> GatewayResponse {
        GatewayResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }
}

/// One request as the daemon read it: what the service needs, nothing of libmicrohttpd.
struct GatewayRequest: Sendable {
    var method: String
    var path: String
    /// Request headers by lower-case name (only the few the service reads).
    var headers: [String: String]
    var body: [UInt8]
    /// The body was longer than the limit: it was read and thrown away.
    var bodyTooLarge: Bool
}
