import Foundation
import Kafka
import QuoteContract
@testable import QuoteWorker
import Synchronization
import Testing

/// W3C trace context: the event's trace on its log lines, a child span on its reply.
@Suite struct TraceContextTests {
    static let valid = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    @Test func readsAValidTraceparentAndWritesItBack() throws {
        let trace = try #require(TraceContext(Self.valid))
        #expect(trace.traceID == "0af7651916cd43dd8448eb211c80319c")
        #expect(trace.spanIDText == "b7ad6b7169203331")
        #expect(trace.flags == 1 && trace.flagsText == "01")
        #expect(trace.traceparent == Self.valid)
        // A later version is read by its first four fields and answered as version 00.
        #expect(TraceContext("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00-extra")?.traceparent
                == "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00")
    }

    @Test(arguments: [
        "", "garbage", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0",  // short
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-",                // version 00 is exactly 55
        "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",                 // upper case
        "00-00000000000000000000000000000000-b7ad6b7169203331-01",                 // zero trace id
        "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",                 // zero span id
        "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",                 // version ff
        "00_0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
    ])
    func refusesWhatIsNotATraceparent(_ text: String) {
        #expect(TraceContext(text) == nil)
    }

    @Test func aChildKeepsTraceAndFlagsUnderANewSpan() throws {
        let parent = try #require(TraceContext(Self.valid))
        #expect(parent.child(spanID: 0xabc).traceparent == "00-0af7651916cd43dd8448eb211c80319c-0000000000000abc-01")
    }

    @Test func spanIDsFromOneSeedRepeatAndAreNeverZero() {
        var a = SpanIDGenerator(seed: 7), b = SpanIDGenerator(seed: 7)
        let first = (0..<1000).map { _ in a.next() }
        #expect(first == (0..<1000).map { _ in b.next() })
        #expect(!first.contains(0) && Set(first).count == 1000)
        var r1 = SpanIDGenerator.random(), r2 = SpanIDGenerator.random()
        #expect(r1.next() != r2.next())
    }

    // MARK: - Through the processor

    static let tp = KafkaTopicPartition(Topics.defaultAddressChanged, 0)

    static func processor() -> EventProcessor {
        var p = EventProcessor(settings: .init(topics: .defaults, defaultTimeToLive: nil), engine: EventProcessorTests.KeepEngine(),
                               clock: ManualClock(WorkerHarness.now))
        p.spanIDs = SpanIDGenerator(seed: 1)
        return p
    }

    static func message(_ value: String, key: String, offset: Int64, traceparent: String?) -> KafkaMessage {
        KafkaMessage(topic: tp.topic, partition: tp.partition, offset: offset, key: Array(key.utf8), value: Array(value.utf8),
                     headers: traceparent.map { [KafkaHeader(ContractHeader.traceparent, $0)] } ?? [])
    }

    static func replies(_ record: ProcessedRecord) -> [KafkaOutgoingMessage] {
        record.chains.flatMap(\.records).filter { $0.topic == Topics.defaultQuoteReplies }
    }

    @Test func anInvalidTraceparentIsNotPassedOnAndARejectedReplyGetsAChildSpan() throws {
        var p = Self.processor()
        let event = EventProcessorTests.event("t", 1)
        let invalid = Self.message(String(decoding: event.encode(), as: UTF8.self), key: "t", offset: 0, traceparent: "not-a-trace")
        let answered = try #require(p.process([invalid]).first)
        #expect(answered.trace == nil)
        #expect(Self.replies(answered).count == 1)
        #expect(Self.replies(answered).first?.headers.contains { $0.name == ContractHeader.traceparent } == false)

        // Unreadable but with a readable session and sequence: the dead letter keeps the event's own
        // traceparent, the rejected reply carries the child.
        let bad = #"{"session_id":"t","sequence":2}"#
        let rejected = try #require(p.process([Self.message(bad, key: "t", offset: 1, traceparent: Self.valid)]).first)
        #expect(rejected.trace == TraceContext(Self.valid))
        let letter = try #require(rejected.chains.first?.records.first)
        #expect(letter.topic == Topics.defaultDeadLetters && letter.headers.first == KafkaHeader(ContractHeader.traceparent, Self.valid))
        var ids = SpanIDGenerator(seed: 1)
        let reply = try #require(Self.replies(rejected).first)
        #expect(reply.headers.last == KafkaHeader(ContractHeader.traceparent, TraceContext(Self.valid)!.child(spanID: ids.next()).traceparent))
    }

    @Test func theLinesAboutAnEventCarryItsTraceAndNoEmptyField() throws {
        var p = Self.processor()
        let event = EventProcessorTests.event("t", 1)
        let text = String(decoding: event.encode(), as: UTF8.self)
        let records = p.process([Self.message(text, key: "t", offset: 0, traceparent: Self.valid),
                                 Self.message(text, key: "t", offset: 1, traceparent: Self.valid),
                                 Self.message("not json", key: "u", offset: 2, traceparent: nil)])
        let written = Mutex<[String]>([])
        let logger = Logger(minimum: .debug, clock: ManualClock(WorkerHarness.now), resource: LogResource(hostName: "h")) { line in
            written.withLock { $0.append(line) }
        }
        for record in records { logger.record(record) }
        let lines = written.withLock { $0 }
        let trace = #""trace_id":"0af7651916cd43dd8448eb211c80319c","span_id":"b7ad6b7169203331","trace_flags":"01""#
        #expect(lines.count == 3)
        #expect(lines[0].contains(#""body":"replied""#) && lines[0].contains(trace))
        #expect(lines[1].contains(#""body":"dropped""#) && lines[1].contains(trace) && lines[1].contains(#""reason":"duplicate""#))
        // Nothing readable but its place: no session, field or trace, rather than empty strings.
        #expect(lines[2] == #"{"timestamp":"2026-10-13T17:00:00.000Z","severity_text":"WARN","severity_number":13,"body":"event rejected","#
                + #""service.name":"shipquote","host.name":"h","error_code":"not_json","source_offset":2,"source_partition":0}"#)
        for line in lines { #expect(!line.contains(#":"""#), "an empty field: \(line)") }
    }

    @Test func aDeadLetterCountsAsRejectedOnlyWhenAReplyWentOut() throws {
        var p = Self.processor()
        let records = p.process([Self.message(#"{"session_id":"t","sequence":2}"#, key: "t", offset: 0, traceparent: nil),
                                 Self.message("not json", key: "u", offset: 1, traceparent: nil)])
        #expect(records.map(\.hasReply) == [true, false])
        let metrics = WorkerMetrics()
        for record in records { metrics.record(record) }
        let snapshot = metrics.snapshot()
        #expect(snapshot.deadLetters == 2)
        #expect(snapshot.outcomes == ["rejected": 1])
        #expect(snapshot.drops == [.unanswerable: 1])
        #expect(snapshot.totalOutcomes + snapshot.totalDrops == 2)
    }

    @Test func aTurnCountedAtOnceGivesTheSameFiguresAsEachRecordCountedAlone() throws {
        var p = Self.processor()
        let text = String(decoding: EventProcessorTests.event("t", 1).encode(), as: UTF8.self)
        // Answered, duplicate, two dead letters (one with a reply, one without), answered again, left for replay.
        let records = p.process([Self.message(text, key: "t", offset: 0, traceparent: nil),
                                 Self.message(text, key: "t", offset: 1, traceparent: nil),
                                 Self.message(#"{"session_id":"v","sequence":2}"#, key: "v", offset: 2, traceparent: nil),
                                 Self.message("not json", key: "u", offset: 3, traceparent: nil),
                                 Self.message("not json", key: "u", offset: 4, traceparent: nil)])
            + [ProcessedRecord(source: KafkaTopicPartition("in", 0), offset: 5, disposition: .leftForReplay)]
        let one = WorkerMetrics(), all = WorkerMetrics()
        var tally = DispositionTally()
        for record in records {
            one.record(record)
            tally.add(record)
        }
        all.record(tally)
        let (a, b) = (one.snapshot(), all.snapshot())
        #expect(b.outcomes == a.outcomes && b.drops == a.drops && b.deadLetters == a.deadLetters)
        #expect(b.deadLetters == 3 && b.drops[.duplicate] == 1 && b.drops[.unanswerable] == 2)
        #expect(b.outcomes["rejected"] == 1 && b.outcomes["keep"] == 1)
        #expect(b.totalOutcomes + b.totalDrops == 5)
    }
}
