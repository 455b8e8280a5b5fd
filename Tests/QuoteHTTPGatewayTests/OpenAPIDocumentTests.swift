import Foundation
import Testing

/// docs/openapi.yaml: valid OpenAPI 3.1 (by PyPI's openapi-spec-validator when installed, as
/// `make deps` does) and in step with what the gateway answers.
@Suite struct OpenAPIDocumentTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/openapi.yaml")

    static let validator: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/openapi-spec-validator" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    @Test(.enabled(if: validator != nil, "openapi-spec-validator is not on PATH: pip install openapi-spec-validator (make deps does)"))
    func isValidOpenAPI31() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.validator!)
        process.arguments = [Self.document.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
    }

    @Test func describesEveryAnswerOfTheQuoteRoute() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        #expect(text.hasPrefix("openapi: 3.1."))
        for needle in ["/v1/sessions/{session_id}/quote:", "post:", "Request-Timeout", "traceparent", "superseded_by",
                       "Quote-Outcome", "Quote-Sequence", "/metrics:", "/healthz:", "/readyz:", "timed_out"] {
            #expect(text.contains(needle), "docs/openapi.yaml does not mention \(needle)")
        }
        for status in [200, 204, 400, 404, 405, 409, 413, 422, 431, 503, 504] {
            #expect(text.contains("\"\(status)\":"), "docs/openapi.yaml does not describe \(status)")
        }
    }
}
