import Foundation
import Kafka
import KafkaTesting
import QuoteContract
@testable import QuoteGateway
import ShippingRules
import Testing

/// The gateway's side of the sequence check: it never hands back an answer to an older address.
/// Replies are written straight to the reply topic, as any worker would, so the gateway is tested alone.
@Suite struct LatestWinsTests {
    static func event(_ session: String, _ sequence: Int64) -> AddressChangeEvent {
        AddressChangeEvent(sessionID: session, sequence: sequence, paymentMethodType: "APPLE_PAY", trigger: .addressChanged,
                           currency: .usd, shippingAddress: PartialAddress(countryCode: "US"),
                           cart: Cart(subtotal: Money(minorUnits: 1000, currency: .usd)), occurredAt: Date())
    }

    static func reply(_ session: String, _ sequence: Int64) -> KafkaOutgoingMessage {
        let reply = QuoteReply(sessionID: session, sequence: sequence, outcome: .keep, computedAt: Date(timeIntervalSince1970: 0))
        return KafkaOutgoingMessage(topic: Topics.defaultQuoteReplies, key: Array(session.utf8), value: reply.encode())
    }

    @Test func aReplyToAnOlderSequenceIsIgnoredAndItsWaitEndsSuperseded() async throws {
        let cluster = try EmbeddedKafkaCluster(topics: [KafkaTopicSpec(Topics.defaultAddressChanged, partitions: 2),
                                                        KafkaTopicSpec(Topics.defaultQuoteReplies, partitions: 2)])
        let kafka = KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers, "fetch.wait.max.ms": "5"])
        let gateway = QuoteGateway(configuration: .init(kafka: kafka))
        defer { gateway.close() }
        let replier = try KafkaProducer(configuration: kafka)
        defer { replier.close(timeoutMs: 1_000) }

        try await gateway.send([Self.event("s", 1)])
        try await gateway.send([Self.event("s", 2)])
        if case .superseded(let newer) = try await gateway.reply(sessionID: "s", sequence: 1, within: .seconds(1)) {
            #expect(newer == 2)
        } else {
            Issue.record("the wait for sequence 1 must end superseded once 2 is sent")
        }
        try replier.send(Self.reply("s", 1)) { _ in }
        try replier.send(Self.reply("s", 2)) { _ in }
        #expect(replier.flush(timeoutMs: 5_000))
        guard case .reply(let reply) = try await gateway.reply(sessionID: "s", sequence: 2, within: .seconds(10)) else {
            Issue.record("no reply to sequence 2"); return
        }
        #expect(reply.sequence == 2)
        #expect(gateway.ignoredStaleReplies.map(\.sequence) == [1])
    }

    @Test func aWaitWithoutAnyReplyTimesOut() async throws {
        let cluster = try EmbeddedKafkaCluster(topics: [KafkaTopicSpec(Topics.defaultAddressChanged, partitions: 1),
                                                        KafkaTopicSpec(Topics.defaultQuoteReplies, partitions: 1)])
        let gateway = QuoteGateway(configuration: .init(kafka: KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers])))
        defer { gateway.close() }
        try await gateway.send([Self.event("quiet", 1)])
        do {
            _ = try await gateway.reply(sessionID: "quiet", sequence: 1, within: .milliseconds(300))
            Issue.record("expected a time-out")
        } catch {
            guard case .timedOut(let session, let sequence) = error else { Issue.record("got \(error)"); return }
            #expect(session == "quiet" && sequence == 1)
        }
        #expect(gateway.outstandingTimers == 0)
    }
}

/// The async face: `try await gateway.quote(event)`. What must happen within a call's wait runs at
/// `.high`, as the HTTP gateway runs its calls: in a full run the suite's synchronous tests hold every
/// thread of the default priority, and a call's deadline timer could fire before the test's own task
/// got a thread to send the reply (a run failed so: "no reply to session c0 sequence 1 in time").
@Suite struct AsyncQuoteTests {
    static func setUp() throws -> (EmbeddedKafkaCluster, QuoteGateway, KafkaProducer) {
        let cluster = try EmbeddedKafkaCluster(topics: [KafkaTopicSpec(Topics.defaultAddressChanged, partitions: 2),
                                                        KafkaTopicSpec(Topics.defaultQuoteReplies, partitions: 2)])
        let kafka = KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers, "fetch.wait.max.ms": "5"])
        return (cluster, QuoteGateway(configuration: .init(kafka: kafka)), try KafkaProducer(configuration: kafka))
    }

    @Test func aNewerQuoteForTheSameSessionEndsTheOlderWaitSuperseded() async throws {
        let (cluster, gateway, replier) = try Self.setUp()
        defer { gateway.close(); replier.close(timeoutMs: 1_000); withExtendedLifetime(cluster) {} }
        // Every step within the calls' 25 s waits, so all of it at `.high` (a run failed with the first
        // call timed out: the test's own task got no thread to send the second within its wait).
        try await Task(priority: .high) {
            let first = Task { try await gateway.quote(LatestWinsTests.event("a", gateway.nextSequence(for: "a"))) }
            try await Task.sleep(for: .milliseconds(200))
            #expect(gateway.nextSequence(for: "a") == 2)
            let second = Task { try await gateway.quote(LatestWinsTests.event("a", 2)) }
            guard case .superseded(let newer) = try await first.value else { Issue.record("the first wait must end superseded"); return }
            #expect(newer == 2)
            try replier.send(LatestWinsTests.reply("a", 2)) { _ in }
            guard case .reply(let reply) = try await second.value else { Issue.record("no reply to sequence 2"); return }
            #expect(reply.sequence == 2)
        }.value
    }

    @Test func noReplyByReplyByThrowsATypedTimeout() async throws {
        let (cluster, gateway, replier) = try Self.setUp()
        defer { gateway.close(); replier.close(timeoutMs: 1_000); withExtendedLifetime(cluster) {} }
        var event = LatestWinsTests.event("slow", 1)
        event.replyBy = Date().addingTimeInterval(0.3)
        do {
            _ = try await gateway.quote(event)
            Issue.record("expected a time-out")
        } catch {
            guard case .timedOut(let session, let sequence) = error else { Issue.record("got \(error)"); return }
            #expect(session == "slow" && sequence == 1)
        }
    }

    @Test func manyConcurrentSessionsEachGetTheirOwnReply() async throws {
        let (cluster, gateway, replier) = try Self.setUp()
        defer { gateway.close(); replier.close(timeoutMs: 1_000); withExtendedLifetime(cluster) {} }
        let sessions = (0..<200).map { "c\($0)" }
        let answers = try await withThrowingTaskGroup(of: (String, Int64?).self) { group in
            for s in sessions {
                group.addTask(priority: .high) {
                    if case .reply(let r) = try await gateway.quote(LatestWinsTests.event(s, 1), defaultWait: .seconds(20)) {
                        return (s, r.sequence)
                    }
                    return (s, nil)
                }
            }
            // Answer every session once its event is out (a worker would).
            let answering = Task(priority: .high) {
                while !sessions.allSatisfy({ gateway.nextSequence(for: $0) == 2 }) { try await Task.sleep(for: .milliseconds(10)) }
                for s in sessions { try replier.send(LatestWinsTests.reply(s, 1)) { _ in } }
            }
            try await answering.value
            var all: [String: Int64?] = [:]
            for try await (s, q) in group { all[s] = q }
            return all
        }
        #expect(answers.count == 200)
        #expect(answers.values.allSatisfy { $0 == 1 })
    }
}
