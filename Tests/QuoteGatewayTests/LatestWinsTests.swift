import Foundation
import Kafka
import QuoteContract
import QuoteGateway
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

    static func reply(_ session: String, _ sequence: Int64) -> OutgoingMessage {
        let reply = QuoteReply(sessionID: session, sequence: sequence, outcome: .keep, computedAt: Date(timeIntervalSince1970: 0))
        return OutgoingMessage(topic: Topics.defaultQuoteReplies, key: Array(session.utf8), value: reply.encode())
    }

    @Test func aReplyToAnOlderSequenceIsIgnoredAndItsWaitEndsSuperseded() throws {
        let cluster = try EmbeddedKafkaCluster(topics: [TopicSpec(Topics.defaultAddressChanged, partitions: 2),
                                                        TopicSpec(Topics.defaultQuoteReplies, partitions: 2)])
        let kafka = KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers, "fetch.wait.max.ms": "5"])
        let gateway = try QuoteGateway(configuration: .init(kafka: kafka))
        defer { gateway.close() }
        let replier = try KafkaProducer(configuration: kafka)
        defer { replier.close(timeoutMs: 1_000) }

        try gateway.send(Self.event("s", 1))
        try gateway.send(Self.event("s", 2))
        if case .superseded(let newer) = gateway.awaitReply(sessionID: "s", sequence: 1, timeout: .seconds(1)) {
            #expect(newer == 2)
        } else {
            Issue.record("the wait for sequence 1 must end superseded once 2 is sent")
        }
        try replier.send(Self.reply("s", 1)) { _ in }
        try replier.send(Self.reply("s", 2)) { _ in }
        #expect(replier.flush(timeoutMs: 5_000))
        guard case .reply(let reply) = gateway.awaitReply(sessionID: "s", sequence: 2, timeout: .seconds(10)) else {
            Issue.record("no reply to sequence 2"); return
        }
        #expect(reply.sequence == 2)
        #expect(gateway.ignoredStaleReplies.map(\.sequence) == [1])
    }

    @Test func aWaitWithoutAnyReplyTimesOut() throws {
        let cluster = try EmbeddedKafkaCluster(topics: [TopicSpec(Topics.defaultAddressChanged, partitions: 1),
                                                        TopicSpec(Topics.defaultQuoteReplies, partitions: 1)])
        let gateway = try QuoteGateway(configuration: .init(kafka: KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers])))
        defer { gateway.close() }
        try gateway.send(Self.event("quiet", 1))
        guard case .timedOut = gateway.awaitReply(sessionID: "quiet", sequence: 1, timeout: .milliseconds(300)) else {
            Issue.record("expected a time-out"); return
        }
    }
}
