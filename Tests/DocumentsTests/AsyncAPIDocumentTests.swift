import Foundation
import QuoteContract
import Testing

/// docs/asyncapi.yaml names the contract's four topics and points at the schemas that exist.
@Suite struct AsyncAPIDocumentTests {
    @Test func theFourTopicsWithTheirKeysAndSchemas() throws {
        let doc = try YAMLNode.load(try Repository.text("docs/asyncapi.yaml"))
        #expect(doc["asyncapi"]?.text == "3.0.0")
        let channels = try #require(doc["channels"])
        let addresses = Set(channels.keys.compactMap { channels[$0, "address"]?.text })
        #expect(addresses == [Topics.defaultAddressChanged, Topics.defaultQuoteReplies, Topics.defaultDeadLetters, Topics.defaultQuoteState])

        // Every $ref to a file resolves to a schema in the repository.
        let text = try Repository.text("docs/asyncapi.yaml")
        let refs = text.split(separator: "\n").compactMap { line -> String? in
            guard let r = line.range(of: "$ref: '") ?? line.range(of: "$ref: \"") else { return nil }
            return String(line[r.upperBound...].dropLast())
        }
        let files = refs.filter { !$0.hasPrefix("#") }
        #expect(files.contains { $0.hasSuffix("address-change-event.schema.json") })
        #expect(files.contains { $0.hasSuffix("quote-reply.schema.json") })
        for ref in files {
            #expect(FileManager.default.fileExists(atPath: Repository.url("docs/" + ref).path), "\(ref)")
        }
        // Internal references point at components that exist.
        for ref in refs where ref.hasPrefix("#/") {
            let path = ref.dropFirst(2).split(separator: "/").map(String.init)
            #expect(path.reduce(Optional(doc)) { $0?[$1] } != nil, "\(ref)")
        }
        let operations = try #require(doc["operations"])
        let actions = operations.keys.compactMap { operations[$0, "action"]?.text }
        #expect(actions.contains("receive") && actions.contains("send"))
    }

    @Test func theDeadLetterCodesAreTheRejectionCodesAndTheVersionIsTheContracts() throws {
        let doc = try YAMLNode.load(try Repository.text("docs/asyncapi.yaml"))
        let codes = doc["components", "messages", "deadLetter", "headers", "properties", "error-code", "enum"]?.items.compactMap(\.text)
        #expect(codes == RejectionCode.allCases.map(\.rawValue))
        #expect(doc["info", "version"]?.text == "1.1.0")
    }
}
