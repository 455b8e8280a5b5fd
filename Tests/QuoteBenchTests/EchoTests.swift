import Kafka
@testable import QuoteBench
import Testing

/// The echo baseline's byte scan and commit rule, and the bench's session ids.
@Suite struct EchoTests {
    @Test func theEchoReadsTheSequenceDigitsWithoutParsingJSON() {
        #expect(EchoReply.sequenceDigits(in: Array(#"{"session_id":"s","sequence": 42,"x":1}"#.utf8)).map { Array($0) } == Array("42".utf8))
        #expect(EchoReply.sequenceDigits(in: Array(#"{"sequence":"7"}"#.utf8)) == nil)
        #expect(EchoReply.sequenceDigits(in: Array(#"{"other":1}"#.utf8)) == nil)
        #expect(EchoReply.value(sequence: Array("42".utf8)[...]) == Array(#"{"sequence":42}"#.utf8))
    }

    @Test func offsetsAreCommittedOnlyUpToTheLastBatchWhollyDelivered() {
        let a = KafkaTopicPartition("in", 0), b = KafkaTopicPartition("in", 1)
        var queue = CommitQueue()
        let first = BenchCounter(1), second = BenchCounter(2), third = BenchCounter(1)
        queue.append(.init(remaining: first, offsets: [a: 10]))
        queue.append(.init(remaining: second, offsets: [a: 12, b: 3]))
        queue.append(.init(remaining: third, offsets: [a: 14]))
        #expect(queue.takeDelivered() == [:])
        first.add(-1)
        third.add(-1)
        #expect(queue.takeDelivered() == [a: 10])   // the third waits behind the second
        second.add(-2)
        #expect(queue.takeDelivered() == [a: 14, b: 3])
        #expect(queue.takeDelivered() == [:])
    }

    @Test func sessionIDsAreUUIDShapedAndReadBackFromTheHeader() {
        let id = BenchEvents.sessionID(42)
        #expect(id == "b0000000-0000-4000-8000-000000000042")
        #expect(id.count == 36)
        #expect(BenchEvents.sessionIndex(Array(id.utf8)) == 42)
        #expect(BenchEvents.sessionIndex(Array(BenchEvents.sessionID(42, prefix: BenchEvents.warmupPrefix).utf8)) == nil)
        #expect(BenchEvents.decimal(Array("0012".utf8)) == 12)
        #expect(BenchEvents.decimal(Array("1e3".utf8)) == nil)
        #expect(BenchEvents.decimal([UInt8]()) == nil)
    }
}
