/// What a route answers: status, content type and body. The endpoint copies the body out.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]

    public init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, contentType: contentType, body: Array(text.utf8))
    }

    static let notFound = HTTPResponse.text("not found\n", status: 404)
    static let methodNotAllowed = HTTPResponse.text("only GET and HEAD are served\n", status: 405)
}
