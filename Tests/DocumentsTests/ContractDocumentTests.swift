import Foundation
import QuoteContract
import QuoteWorker
import ShippingRules
import Testing

/// `docs/contract.md`, the wire contract in the repository, read as tables and code blocks.
enum ContractDocument {
    static func text() throws -> String { try Repository.text("docs/contract.md") }

    /// The rows of the first table under the `## heading` (or `### heading`), each as its trimmed
    /// cells, without the header row and the rule under it.
    static func table(under heading: String) throws -> [[String]] {
        let lines = try text().components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("#") && $0.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces) == heading })
        else { throw DocumentError(description: "docs/contract.md has no heading \(heading)") }
        var rows: [[String]] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("|") else {
                if !rows.isEmpty { break }
                continue
            }
            rows.append(line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) })
        }
        guard rows.count >= 2 else { throw DocumentError(description: "no table under \(heading)") }
        return Array(rows.dropFirst(2))
    }

    /// The first cells of a table, backticks removed: the names it defines.
    static func names(under heading: String) throws -> [String] {
        try table(under: heading).map { $0[0].replacingOccurrences(of: "`", with: "") }
    }

    /// Every fenced ```json block, in order.
    static func jsonBlocks() throws -> [String] {
        try text().components(separatedBy: "```json\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
    }

    struct DocumentError: Error, CustomStringConvertible {
        let description: String
    }
}

/// Issue 15: the contract document agrees with the code and the schemas, name for name.
@Suite struct ContractDocumentTests {
    @Test func theOutcomesAreTheCodes() throws {
        #expect(try ContractDocument.names(under: "Outcomes") == QuoteOutcome.Kind.allCases.map(\.rawValue))
    }

    @Test func theDeadLetterCausesAreTheRejectionCodes() throws {
        #expect(try ContractDocument.names(under: "Dead letters") == RejectionCode.allCases.map(\.rawValue))
    }

    /// Version 1.1: the title, the trigger values the decoder names, the final check's error code,
    /// and the message a 1.0 worker gives (quoted under Versioning) is the one 1.0 had.
    @Test func theMinorVersionAndItsAdditionsAreDocumented() throws {
        let text = try ContractDocument.text()
        #expect(text.hasPrefix("# ShipQuote wire contract, version 1.1\n"))
        let trigger = try #require(ContractDocument.table(under: "Address-change event").first { $0[0] == "`trigger`" })
        for name in ["sheet_opened", "address_changed", "payment_authorized", "unsupported_trigger"] {
            #expect(trigger[1].contains("`\(name)`"), "\(name)")
        }
        #expect(QuoteTrigger(rawValue: "payment_authorized") == .paymentAuthorized)
        #expect(text.contains("`\(ShippingError.shippingMethodUnavailable)`"))
        #expect(text.contains("deploy 1.1 workers before gateways send\n  `payment_authorized`"))
        #expect(text.contains("(`trigger must be sheet_opened or address_changed`)"))
        let schema = try Repository.text("docs/schemas/address-change-event.schema.json")
        #expect(schema.contains(#""trigger": { "enum": ["sheet_opened", "address_changed", "payment_authorized"]"#))
    }

    @Test func theDropReasonsAreTheWorkers() throws {
        #expect(try Set(ContractDocument.names(under: "Sequence rules")) == Set(DropReason.allCases.map(\.rawValue)))
    }

    @Test func theHeadersAreContractHeaders() throws {
        let names = try ContractDocument.names(under: "Headers")
        #expect(names == [ContractHeader.contentType, ContractHeader.sessionID, ContractHeader.sequence, ContractHeader.traceparent,
                          ContractHeader.errorCode, ContractHeader.errorMessage, ContractHeader.sourceTopic,
                          ContractHeader.sourcePartition, ContractHeader.sourceOffset])
        // What a reply and a dead letter carry, in the document's order.
        let reply = ContractHeader.replyHeaders(sessionID: "s", sequence: 1, traceparent: "t").map(\.name)
        let rejection = EventRejection(code: .notJSON, message: "m")
        let deadLetter = ContractHeader.deadLetterHeaders(rejection: rejection, sourceTopic: "t", sourcePartition: 0, sourceOffset: 0).map(\.name)
        #expect(names == reply + deadLetter)
        let contentType = try ContractDocument.table(under: "Headers").first { $0[0] == "`\(ContractHeader.contentType)`" }
        #expect(contentType?[2] == "`\(ContractHeader.applicationJSON)`")
    }

    @Test func theTopicsAreTheDefaults() throws {
        let t = Topics.defaults
        #expect(try ContractDocument.names(under: "Topics") == [t.addressChanged, t.quoteReplies, t.deadLetters, t.quoteState])
    }

    @Test func theLimitsAreEventLimits() throws {
        let expected: [String: Int64] = [
            "event size": Int64(EventLimits.maxBytes), "nesting depth": Int64(EventLimits.maxDepth),
            "session_id length": Int64(EventLimits.maxSessionIDLength), "event_id length": Int64(EventLimits.maxEventIDLength),
            "cart items": Int64(EventLimits.maxItems), "cart discounts": Int64(EventLimits.maxDiscounts),
            "item quantity": EventLimits.maxQuantity, "item weight": EventLimits.maxWeightGrams,
            "item dimension": EventLimits.maxDimensionMillimetres, "shipping_class length": Int64(EventLimits.maxShippingClassLength),
            "line amount": Money.maxMinorUnits,
        ]
        var documented: [String: Int64] = [:]
        for row in try ContractDocument.table(under: "Limits") {
            let number = row[1].prefix { $0.isNumber }
            documented[row[0].replacingOccurrences(of: "`", with: "")] = Int64(number)
        }
        #expect(documented == expected)
        // The reply's limits, as the update check applies them.
        let text = try ContractDocument.text()
        #expect(text.contains("at most \(UpdateCheck.maxShippingMethods) shipping methods, \(UpdateCheck.maxSummaryItems) summary items"))
    }

    @Test func theFieldTablesNameEverySchemaMember() throws {
        for (heading, schema) in [("Address-change event", "address-change-event"), ("Quote reply", "quote-reply")] {
            guard case .object(let root) = try JSONReader().read(Repository.bytes("docs/schemas/\(schema).schema.json")),
                  case .object(let properties)? = root["properties"] else { Issue.record("\(schema): no properties"); continue }
            #expect(try ContractDocument.names(under: heading) == properties.members.map(\.key), "\(heading)")
        }
    }

    @Test func thePartitionerIsTheOneEveryProducerSets() throws {
        let text = try ContractDocument.text()
        #expect(text.contains("**Partitioner: `\(KeyPartitioning.librdkafkaName)`**"))
        let worker = WorkerDefaults.producerProperties.first { $0.key == KeyPartitioning.property }
        #expect(worker?.value == KeyPartitioning.librdkafkaName)
        #expect(WorkerConfiguration(topics: .defaults).producerKafka[KeyPartitioning.property] == KeyPartitioning.librdkafkaName)
        #expect(try Repository.text("README.md").contains("`\(KeyPartitioning.property)=\(KeyPartitioning.librdkafkaName)`"))
    }

    /// The json blocks: the example event, a reply the encoder writes, a final-check event and a state record.
    @Test func theExamplesAreWhatTheCodeWrites() throws {
        let blocks = try ContractDocument.jsonBlocks()
        try #require(blocks.count == 4)
        #expect(try JSONReader().read(blocks[1]) == JSONReader().read(Repository.bytes("examples/replies/rejected.json")))
        #expect(try JSONReader().read(blocks[2]) == JSONReader().read(Repository.bytes("examples/events/payment-authorized-zip4.json")))
        let state = try #require(SessionState.decode(Array(blocks[3].trimmingCharacters(in: .whitespacesAndNewlines).utf8)))
        #expect(String(decoding: state.encode(), as: UTF8.self) == blocks[3].trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(state == SessionState(sequence: 7, sourceOffset: 1234, lastSeenMs: 1_760_097_600_123))
    }

    /// The repository stands alone: its documents point at no file outside it, and README links the contract.
    @Test func noDocumentPointsOutsideTheRepository() throws {
        let documents = ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", "SECURITY.md", "docs/contract.md", "docs/asyncapi.yaml",
                         "examples/rules/README.md"]
        for document in documents {
            let text = try Repository.text(document)
            #expect(!text.contains("../shared") && !text.contains("CONTRACT.md"), "\(document) points outside the repository")
        }
        #expect(try Repository.text("README.md").contains("(docs/contract.md)"))
    }
}
