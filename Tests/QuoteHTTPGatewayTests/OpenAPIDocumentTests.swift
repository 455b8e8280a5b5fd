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

    @Test func describesTheFinalCheckAndEachOfItsAnswers() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let start = try #require(text.range(of: "  /v1/sessions/{session_id}/final:\n"))
        let end = try #require(text.range(of: "\n  /metrics:", range: start.upperBound..<text.endIndex))
        let route = text[start.upperBound..<end.lowerBound]
        for needle in ["operationId: finalCheck", "FinalRequest", "FinalCheck", "shown_total", "address_lines", "Request-Timeout"] {
            #expect(text.contains(needle), "docs/openapi.yaml does not mention \(needle)")
        }
        for status in [200, 400, 405, 409, 413, 422, 502, 503, 504] {
            #expect(route.contains("\"\(status)\":"), "/final does not describe \(status)")
        }
        // The outcomes and the required members are the ones the gateway writes (FinalHTTPCheckTests reads them back).
        #expect(text.contains("outcome: { type: string, enum: [chargeable, total_changed, method_unavailable, unserviceable] }"))
        #expect(text.contains("required: [outcome, total, shown_total, summary_items, shipping_method, errors]"))
        #expect(text.contains("required: [payment_method_type, currency, shipping_address, cart, selected_shipping_method_id, shown_total]"))
        #expect(text.contains("SHIPPING_METHOD_UNAVAILABLE"))
    }
}
