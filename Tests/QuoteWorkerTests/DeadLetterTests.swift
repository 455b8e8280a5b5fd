import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import ShippingRules
import Testing

/// Every rejection case of the contract's "Dead letters": the original bytes go unchanged to the DLQ
/// with headers that say why, a `rejected` reply goes out when session and sequence are readable,
/// and the worker keeps consuming.
@Suite(.serialized) struct DeadLetterTests {
    struct Case {
        let name: String
        let key: String
        let bytes: [UInt8]
        let code: String
        /// The session a `rejected` reply must be addressed to; nil when none can be.
        let replySession: String?
    }

    static func cases(_ h: WorkerHarness) -> [Case] {
        func json(_ session: String, _ edit: (String) -> String) -> [UInt8] {
            Array(edit(String(decoding: h.event(session: session, sequence: 3).encode(), as: UTF8.self)).utf8)
        }
        let manyItems = Cart(items: (0..<101).map { i in
            CartItem(id: "sku-\(i)", label: "Item", quantity: 1, unitAmount: Money(minorUnits: 100, currency: .usd))
        }, discounts: Cart.twoShirts.discounts, subtotal: Cart.twoShirts.subtotal)
        var tooMany = h.event(session: "s-limit", sequence: 3)
        tooMany.cart = manyItems
        let huge = "{\"version\":1,\"session_id\":\"s-huge\",\"pad\":\"" + String(repeating: "x", count: 1_048_576) + "\"}"
        return [
            Case(name: "not JSON", key: "s-notjson", bytes: Array("{\"version\": 1, \"session_id\": ".utf8), code: "not_json", replySession: nil),
            Case(name: "wrong version", key: "s-version", bytes: json("s-version") { $0.replacingOccurrences(of: "\"version\":1", with: "\"version\":2") },
                 code: "unsupported_version", replySession: "s-version"),
            Case(name: "key differs from session_id", key: "someone-else", bytes: json("s-key") { $0 },
                 code: "key_mismatch", replySession: "s-key"),
            Case(name: "missing sequence", key: "s-noseq", bytes: json("s-noseq") { $0.replacingOccurrences(of: "\"sequence\":3,", with: "") },
                 code: "missing_field", replySession: nil),
            Case(name: "a second currency", key: "s-currency", bytes: json("s-currency") { text in
                     var t = text
                     let r = t.range(of: "\"currency\":\"USD\",\"value\":\"25.00\"")!
                     t.replaceSubrange(r, with: "\"currency\":\"EUR\",\"value\":\"25.00\"")
                     return t
                 }, code: "currency_mismatch", replySession: "s-currency"),
            Case(name: "101 cart lines", key: "s-limit", bytes: tooMany.encode(), code: "over_limit", replySession: "s-limit"),
            Case(name: "over 1 MiB", key: "s-huge", bytes: Array(huge.utf8), code: "too_large", replySession: nil),
        ]
    }

    @Test func eachRejectionGoesUnchangedToTheDeadLetterTopicAndTheWorkerGoesOn() throws {
        let harness = try WorkerHarness(partitions: 2)
        defer { harness.stop() }
        harness.awaitAssignment()
        let cases = Self.cases(harness)
        let reports = harness.produce(cases.map {
            KafkaOutgoingMessage(topic: harness.topics.addressChanged, key: Array($0.key.utf8), value: $0.bytes)
        })
        // A good event after all the bad ones is still answered.
        harness.produce([harness.record(harness.event(session: "s-good", sequence: 1))])
        let metrics = harness.awaitFinished(cases.count + 1)
        #expect(metrics.deadLetters == cases.count)
        // Rejected: answered with a rejected reply; the rest got no reply (unanswerable).
        let answered = cases.filter { $0.replySession != nil }.count
        #expect(metrics.outcomes == ["rejected": answered, "update": 1])
        #expect(metrics.drops == [.unanswerable: cases.count - answered])

        let letters = try harness.read(harness.topics.deadLetters) { $0.count >= cases.count }
        #expect(letters.count == cases.count)
        for (c, report) in zip(cases, reports) {
            guard case .delivered(let partition, let offset) = report else { Issue.record("\(c.name) not produced"); continue }
            let letter = try #require(letters.first { $0.keyText == c.key }, "no dead letter for \(c.name)")
            #expect(letter.value == c.bytes, "\(c.name): the dead letter must keep the original bytes")
            #expect(letter.headerText(ContractHeader.errorCode) == c.code, "\(c.name)")
            #expect(letter.headerText(ContractHeader.errorMessage)?.isEmpty == false)
            #expect(letter.headerText(ContractHeader.sourceTopic) == harness.topics.addressChanged)
            #expect(letter.headerText(ContractHeader.sourcePartition) == String(partition))
            #expect(letter.headerText(ContractHeader.sourceOffset) == String(offset))
        }

        let expectedReplies = cases.compactMap(\.replySession).count + 1
        let replies = try harness.read(harness.topics.quoteReplies) { $0.count >= expectedReplies }
        let decoded = try replies.map { try QuoteReply.decode($0.value) }
        #expect(decoded.count == expectedReplies)
        for c in cases {
            let answers = decoded.filter { $0.sessionID == c.replySession }
            if c.replySession == nil { continue }
            let reply = try #require(answers.first, "\(c.name): expected a rejected reply")
            #expect(reply.sequence == 3)
            guard case .rejected(let rejection) = reply.outcome else { Issue.record("\(c.name): \(reply.outcome)"); continue }
            #expect(rejection.code == c.code, "\(c.name): \(rejection.wireText)")
        }
        #expect(decoded.contains { $0.sessionID == "s-good" && $0.outcome != .keep })
    }
}
