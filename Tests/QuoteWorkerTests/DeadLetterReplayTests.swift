import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import ShippingRules
import Testing

/// `shipquote dlq replay`'s logic: which dead letters a selection takes, what a replayed record
/// carries, and a replay through a running worker.
@Suite(.serialized) struct DeadLetterReplayTests {
    static func letter(_ offset: Int64, code: String, key: String?, extra: [KafkaHeader] = []) -> DeadLetter {
        let headers = extra + [
            KafkaHeader(ContractHeader.errorCode, code), KafkaHeader(ContractHeader.errorMessage, "why"),
            KafkaHeader(ContractHeader.sourceTopic, Topics.defaultAddressChanged), KafkaHeader(ContractHeader.sourcePartition, "1"),
            KafkaHeader(ContractHeader.sourceOffset, String(100 + offset)),
        ]
        return DeadLetter(KafkaMessage(topic: Topics.defaultDeadLetters, partition: 0, offset: offset, key: key.map { Array($0.utf8) },
                                       value: Array("secret value \(offset)".utf8), headers: headers))
    }

    @Test func aSelectionTakesExactlyTheCodesOffsetsAndSessionsGiven() {
        let letters = (0..<8).map { Self.letter(Int64($0), code: $0 % 2 == 0 ? "not_json" : "invalid_field", key: "s-\($0 % 3)") }
        func offsets(_ s: DeadLetterSelection) -> [Int64] { letters.filter(s.matches).map(\.offset) }
        #expect(offsets(DeadLetterSelection()) == Array(0..<8))
        #expect(offsets(DeadLetterSelection(errorCodes: ["not_json"])) == [0, 2, 4, 6])
        #expect(offsets(DeadLetterSelection(errorCodes: ["not_json", "invalid_field"])) == Array(0..<8))
        #expect(offsets(DeadLetterSelection(fromOffset: 2, toOffset: 5)) == [2, 3, 4, 5])
        #expect(offsets(DeadLetterSelection(fromOffset: 3, toOffset: 3)) == [3])
        #expect(offsets(DeadLetterSelection(errorCodes: ["invalid_field"], fromOffset: 2, toOffset: 6)) == [3, 5])
        #expect(offsets(DeadLetterSelection(sessions: ["s-1"])) == [1, 4, 7])
        #expect(offsets(DeadLetterSelection(errorCodes: ["too_large"])) == [])
    }

    @Test func aReplayedRecordKeepsKeyValueAndOriginalHeadersLessTheDeadLetterOnes() {
        let letter = Self.letter(7, code: "invalid_field", key: "s-1",
                                 extra: [KafkaHeader("traceparent", "00-abc-def-01"), KafkaHeader(DeadLetterReplay.replayedFromHeader, "2")])
        let record = letter.replayRecord(to: "input")
        #expect(record.topic == "input")
        #expect(record.key == Array("s-1".utf8))
        #expect(record.value == letter.value)
        #expect(record.partition == nil, "the partitioner chooses by key")
        #expect(record.headers == [KafkaHeader("traceparent", "00-abc-def-01"), KafkaHeader(DeadLetterReplay.replayedFromHeader, "7")])
        #expect(!letter.summary.contains("secret"), "a dry run never shows the value")
        #expect(letter.summary == "dlq-offset=7 error-code=invalid_field source=shipping.address-changed[1]@107 session=s-1 replayed-from-dlq-offset=2")
    }

    /// A worker dead-letters a broken record; a dead letter written by an older worker release for
    /// an event that is valid (a cause that no longer holds) sits beside it. Replaying the second
    /// gets it answered; replaying the first dead-letters it again, marked with where it came from.
    @Test func aReplayedDeadLetterIsAnsweredByTheWorkerAndABrokenOneComesBackMarked() throws {
        let h = try WorkerHarness(partitions: 2)
        defer { h.stop() }
        h.awaitAssignment()
        h.produce([KafkaOutgoingMessage(topic: h.topics.addressChanged, key: Array("s-broken".utf8), value: Array("{\"version\":".utf8))])
        #expect(h.awaitFinished(1).deadLetters == 1)
        _ = try h.read(h.topics.deadLetters) { $0.count >= 1 }
        // As ReplyRecord.deadLetter writes it: the original headers, then the worker's verdict.
        let good = h.event(session: "s-transient", sequence: 1)
        h.produce([KafkaOutgoingMessage(topic: h.topics.deadLetters, key: Array(good.sessionID.utf8), value: good.encode(), headers: [
            KafkaHeader(ContractHeader.traceparent, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
            KafkaHeader(ContractHeader.errorCode, "invalid_field"), KafkaHeader(ContractHeader.errorMessage, "a worker bug"),
            KafkaHeader(ContractHeader.sourceTopic, h.topics.addressChanged), KafkaHeader(ContractHeader.sourcePartition, "0"),
            KafkaHeader(ContractHeader.sourceOffset, "41"),
        ])])

        let all = try DeadLetterReplay.read(topic: h.topics.deadLetters, selection: DeadLetterSelection(), kafka: h.kafka)
        #expect(all.read == 2)
        #expect(all.matched.map(\.offset) == [0, 1])
        let transient = try DeadLetterReplay.read(topic: h.topics.deadLetters, selection: DeadLetterSelection(errorCodes: ["invalid_field"]),
                                                  kafka: h.kafka)
        #expect(transient.matched.map(\.offset) == [1])
        let outcome = try DeadLetterReplay.replay(transient.matched, to: h.topics.addressChanged, kafka: h.kafka)
        #expect(outcome.failed.isEmpty)
        #expect(outcome.delivered.count == 1)
        let metrics = h.awaitFinished(2)
        #expect(metrics.outcomes["update"] == 1)
        let replies = try h.read(h.topics.quoteReplies) { $0.contains { $0.keyText == "s-transient" } }
        let reply = try #require(replies.first { $0.keyText == "s-transient" })
        #expect(try QuoteReply.decode(reply.value).sequence == 1)
        // The event's trace, carried through the replay: the reply is a child span of it.
        let traceparent = try #require(reply.headerText(ContractHeader.traceparent))
        #expect(traceparent.hasPrefix("00-4bf92f3577b34da6a3ce929d0e0e4736-") && traceparent.hasSuffix("-01"))
        #expect(!traceparent.contains("00f067aa0ba902b7"))
        let input = try h.read(h.topics.addressChanged) { $0.count >= 2 }
        let replayed = try #require(input.first { $0.keyText == "s-transient" })
        #expect(replayed.value == good.encode())
        #expect(replayed.headerText(DeadLetterReplay.replayedFromHeader) == "1")
        #expect(replayed.headerText(ContractHeader.errorCode) == nil)
        #expect(replayed.headers.count == 2)

        let broken = try DeadLetterReplay.read(topic: h.topics.deadLetters, selection: DeadLetterSelection(errorCodes: ["not_json"]), kafka: h.kafka)
        #expect(broken.matched.map(\.offset) == [0])
        #expect(try DeadLetterReplay.replay(broken.matched, to: h.topics.addressChanged, kafka: h.kafka).delivered.count == 1)
        #expect(h.awaitFinished(3).deadLetters == 2)
        let letters = try h.read(h.topics.deadLetters) { $0.count >= 3 }
        let again = try #require(letters.first { $0.offset == 2 })
        #expect(again.headerText(ContractHeader.errorCode) == "not_json")
        #expect(again.headerText(DeadLetterReplay.replayedFromHeader) == "0")
        #expect(DeadLetter(again).summary.hasSuffix("session=s-broken replayed-from-dlq-offset=0"))
    }
}
