import Foundation
import Kafka
import QuoteContract
@testable import QuoteWorker
import ShippingRules
import Testing

/// The event processor without a broker: every drop reason, conflation, dead letters, and the
/// exact records it asks to produce.
@Suite struct EventProcessorTests {
    /// Answers `keep` to everything: the processor's decisions, not the rules, are under test.
    struct KeepEngine: QuoteEngine {
        let version = "sha256:test"
        func quote(_ request: QuoteRequest) -> QuoteOutcome { .keep }
    }

    static let tp = KafkaTopicPartition(Topics.defaultAddressChanged, 2)
    static let nowMs: Int64 = 1_791_910_800_000  // WorkerHarness.now, 2026-10-13T17:00:00Z

    let clock = ManualClock(WorkerHarness.now)

    func processor(ttl: TimeInterval? = 30) -> EventProcessor {
        EventProcessor(settings: .init(topics: .defaults, defaultTimeToLive: ttl), engine: KeepEngine(), clock: clock)
    }

    static func event(_ session: String, _ sequence: Int64, occurredAt: Date = WorkerHarness.now, replyBy: Date? = nil) -> AddressChangeEvent {
        AddressChangeEvent(eventID: "evt-\(session)-\(sequence)", sessionID: session, sequence: sequence, merchant: "acme",
                           paymentMethodType: "APPLE_PAY", trigger: .addressChanged, currency: .usd,
                           shippingAddress: .cupertino, cart: .twoShirts,
                           occurredAt: occurredAt, replyBy: replyBy)
    }

    static func record(_ event: AddressChangeEvent, offset: Int64, key: String? = nil, headers: [KafkaHeader] = []) -> KafkaMessage {
        KafkaMessage(topic: tp.topic, partition: tp.partition, offset: offset, key: Array((key ?? event.sessionID).utf8),
                     value: event.encode(), headers: headers)
    }

    static func raw(_ text: String, offset: Int64, key: String = "s") -> KafkaMessage {
        KafkaMessage(topic: tp.topic, partition: tp.partition, offset: offset, key: Array(key.utf8), value: Array(text.utf8))
    }

    func stateValue(_ sequence: Int64, offset: Int64) -> [UInt8] {
        Array("{\"sequence\":\(sequence),\"offset\":\(offset),\"seen_ms\":\(Self.nowMs)}".utf8)
    }

    @Test func aNewEventIsAnsweredWithItsStateRecordAndItsReplyProducedTogether() throws {
        var p = processor()
        p.spanIDs = SpanIDGenerator(seed: 42)
        let traceparent = KafkaHeader(ContractHeader.traceparent, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        let decided = p.process([Self.record(Self.event("a", 1), offset: 40, headers: [traceparent])])
        #expect(decided.count == 1)
        let r = decided[0]
        #expect(r.disposition == .answered(outcome: "keep"))
        #expect(r.source == Self.tp && r.offset == 40 && r.sessionID == "a" && r.sequence == 1 && r.eventID == "evt-a-1")
        // Produced together: neither waits for the other's delivery.
        #expect(r.chains.map(\.records.count) == [1, 1])
        #expect(r.chains.map(\.answersEventOf) == [nil, WorkerHarness.now])
        let state = r.chains[0].records[0]
        #expect(state.topic == Topics.defaultQuoteState && state.partition == 2 && state.key == Array("a".utf8))
        #expect(state.value == stateValue(1, offset: 40))
        let reply = r.chains[1].records[0]
        #expect(reply.topic == Topics.defaultQuoteReplies && reply.partition == nil && reply.key == Array("a".utf8))
        #expect(reply.headers.map(\.name) == ["content-type", "session-id", "sequence", "traceparent"])
        // The reply's span: the event's trace and flags, the next span id of the processor's generator.
        var spanIDs = SpanIDGenerator(seed: 42)
        let child = TraceContext(traceIDHigh: 0x0af7651916cd43dd, traceIDLow: 0x8448eb211c80319c, spanID: spanIDs.next(), flags: 1).traceparent
        #expect(reply.headers.last?.value == Array(child.utf8))
        // Byte for byte the contract's reply headers.
        #expect(reply.headers == ContractHeader.replyHeaders(sessionID: "a", sequence: 1, traceparent: child).map { KafkaHeader($0.name, $0.value) })
        let decoded = try QuoteReply.decode(reply.value)
        #expect(decoded == QuoteReply(sessionID: "a", sequence: 1, eventID: "evt-a-1", outcome: .keep,
                                      rulesVersion: "sha256:test", computedAt: WorkerHarness.now))
    }

    @Test func aReplyToAnEventWithoutATraceCarriesExactlyTheContractsThreeHeaders() throws {
        var p = processor()
        let decided = p.process([Self.record(Self.event("a-long-session-id-0123456789abcdef", 9_007_199_254_740_993), offset: 3)])
        let reply = try #require(decided.first?.chains.last?.records.first)
        #expect(reply.headers == ContractHeader.replyHeaders(sessionID: "a-long-session-id-0123456789abcdef", sequence: 9_007_199_254_740_993)
            .map { KafkaHeader($0.name, $0.value) })
        #expect(reply.headers.map { String(decoding: $0.value ?? [], as: UTF8.self) }
            == ["application/json", "a-long-session-id-0123456789abcdef", "9007199254740993"])
    }

    @Test func anOlderSequenceIsStaleAndTheSameSequenceFromAnotherRecordIsADuplicate() {
        var p = processor()
        _ = p.process([Self.record(Self.event("a", 5), offset: 10)])
        let decided = p.process([Self.record(Self.event("a", 4), offset: 11), Self.record(Self.event("a", 5), offset: 12)])
        #expect(decided.map(\.disposition) == [.dropped(.stale), .dropped(.duplicate)])
        #expect(decided.allSatisfy { $0.chains.isEmpty })
        #expect(p.gate.entry(session: "a", in: Self.tp) == SequenceGate.Entry(sequence: 5, sourceOffset: 10, lastSeenMs: Self.nowMs))
    }

    @Test func theVeryRecordThatSetTheStateIsAnsweredAgainOnReplay() {
        var p = processor()
        p.restore(Self.tp, ["a": SequenceGate.Entry(sequence: 5, sourceOffset: 10, lastSeenMs: 0)])
        let decided = p.process([Self.record(Self.event("a", 5), offset: 10)])
        #expect(decided.map(\.disposition) == [.answered(outcome: "keep")])
        #expect(decided[0].chains[0].records[0].value == stateValue(5, offset: 10))
        #expect(decided[0].chains[1].records[0].topic == Topics.defaultQuoteReplies)
    }

    @Test func withinABatchOnlyEachSessionsNewestEventIsQuoted() {
        var p = processor()
        let decided = p.process([
            Self.record(Self.event("a", 1), offset: 0), Self.record(Self.event("b", 1), offset: 1),
            Self.record(Self.event("a", 3), offset: 2), Self.record(Self.event("a", 2), offset: 3),
        ])
        #expect(decided.map(\.disposition) == [.dropped(.superseded), .answered(outcome: "keep"),
                                                .answered(outcome: "keep"), .dropped(.stale)])
        #expect(decided.map(\.offset) == [0, 1, 2, 3])
    }

    @Test func aBadEventBetweenTwoOfItsSessionWithTheSameCartIsStillDeadLetteredAndOnlyTheNewestAnswered() {
        var p = processor()
        var bad = Self.event("a", 2)
        bad.paymentMethodType = ""   // the same cart as its neighbours, a broken member elsewhere
        let decided = p.process([Self.record(Self.event("a", 1), offset: 0), Self.record(bad, offset: 1),
                                 Self.record(Self.event("a", 3), offset: 2)])
        #expect(decided.map(\.disposition) == [.dropped(.superseded), .deadLettered(.invalidField), .answered(outcome: "keep")])
        #expect(decided[1].field == "payment_method_type")
        // Older than the session's newest of the batch: its dead letter goes out, no state and no reply.
        #expect(decided[1].chains.map { $0.records.map(\.topic) } == [[Topics.defaultDeadLetters]])
    }

    @Test func aBadEventNewerThanAGoodOneOfItsSessionInTheBatchSupersedesItAndIsAnsweredRejected() throws {
        var p = processor()
        var bad = Self.event("a", 3)
        bad.paymentMethodType = ""
        let decided = p.process([Self.record(Self.event("a", 2), offset: 0), Self.record(bad, offset: 1)])
        #expect(decided.map(\.disposition) == [.dropped(.superseded), .deadLettered(.invalidField)])
        #expect(decided[1].chains.map { $0.records.map(\.topic) }
                == [[Topics.defaultDeadLetters], [Topics.defaultQuoteState], [Topics.defaultQuoteReplies]])
        #expect(try QuoteReply.decode(decided[1].chains[2].records[0].value).sequence == 3)
    }

    @Test func aRecordWithoutAKeyIsDeadLetteredAndTheBatchsSessionsAreJudgedAsWithoutIt() {
        var p = processor()
        let event = Self.event("a", 2)
        let keyless = KafkaMessage(topic: Self.tp.topic, partition: Self.tp.partition, offset: 1, key: nil, value: event.encode())
        let decided = p.process([Self.record(Self.event("a", 1), offset: 0), keyless, Self.record(Self.event("a", 3), offset: 2)])
        #expect(decided.map(\.disposition) == [.dropped(.superseded), .deadLettered(.keyMismatch), .answered(outcome: "keep")])
    }

    /// Sessions of a batch are told apart by their keys' bytes, the sequence gate by their ids as
    /// text: two ids that are the same text in different bytes (é precomposed, and e with a
    /// combining accent) are one session to both, so only the newer is answered.
    @Test func sessionIdsEqualAsTextButNotAsBytesAreOneSessionInABatchAsAtTheGate() {
        var p = processor()
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(Array(composed.utf8) != Array(decomposed.utf8) && composed == decomposed)
        let decided = p.process([Self.record(Self.event(composed, 1), offset: 10), Self.record(Self.event(decomposed, 2), offset: 11)])
        #expect(decided.map(\.disposition) == [.dropped(.superseded), .answered(outcome: "keep")])
        // Across batches the gate already holds them as one: the older is stale.
        #expect(p.process([Self.record(Self.event(composed, 1), offset: 12)]).map(\.disposition) == [.dropped(.stale)])
    }

    /// U+212A KELVIN SIGN is canonically "K": an id spelt with it and the same id in ASCII are one
    /// session at the gate, and each answer's state record is keyed by its own event's spelling.
    @Test func anIdSpeltWithACanonicalEquivalentOfASCIIIsTheASCIIIdsSession() {
        var p = processor()
        let ascii = "Kabc", kelvin = "\u{212A}abc"
        let first = p.process([Self.record(Self.event(ascii, 1), offset: 0)])
        let second = p.process([Self.record(Self.event(kelvin, 2), offset: 1)])
        #expect(first.map(\.disposition) == [.answered(outcome: "keep")])
        #expect(second.map(\.disposition) == [.answered(outcome: "keep")])
        #expect(first[0].chains[0].records.map(\.key) == [Array(ascii.utf8)])
        #expect(second[0].chains[0].records.map(\.key) == [Array(kelvin.utf8)])
        #expect(second[0].sessionID.map { Array($0.utf8) } == Array(kelvin.utf8))
        #expect(p.process([Self.record(Self.event(ascii, 1), offset: 2)]).map(\.disposition) == [.dropped(.stale)])
        #expect(p.gate.trackedSessions == 1)
    }

    @Test func anEventPastItsDeadlineExpiresButStillRecordsItsSequence() {
        var p = processor(ttl: 30)
        clock.set(WorkerHarness.now.addingTimeInterval(31))
        let late = p.process([Self.record(Self.event("a", 2), offset: 7)])
        #expect(late.map(\.disposition) == [.dropped(.expired)])
        #expect(late[0].chains.map { $0.records.map(\.topic) } == [[Topics.defaultQuoteState]])
        // An older event arriving after it is stale, not answered.
        #expect(p.process([Self.record(Self.event("a", 1), offset: 8)]).map(\.disposition) == [.dropped(.stale)])
    }

    @Test func replyByWinsOverTheDefaultTimeToLive() {
        var p = processor(ttl: 30)
        clock.set(WorkerHarness.now.addingTimeInterval(5))
        let decided = p.process([
            Self.record(Self.event("a", 1, replyBy: WorkerHarness.now.addingTimeInterval(5)), offset: 0),
            Self.record(Self.event("b", 1, replyBy: WorkerHarness.now.addingTimeInterval(6)), offset: 1),
        ])
        #expect(decided.map(\.disposition) == [.dropped(.expired), .answered(outcome: "keep")])
    }

    @Test func withoutATimeToLiveAnOldEventIsStillAnswered() {
        var p = processor(ttl: nil)
        clock.set(WorkerHarness.now.addingTimeInterval(86_400))
        #expect(p.process([Self.record(Self.event("a", 1), offset: 0)]).map(\.disposition) == [.answered(outcome: "keep")])
    }

    @Test func anUnreadableRecordGoesToTheDeadLettersAloneWhenItsSessionCannotBeRead() {
        var p = processor()
        let decided = p.process([Self.raw("not json", offset: 9)])
        #expect(decided.map(\.disposition) == [.deadLettered(.notJSON)])
        let letter = decided[0].chains.map(\.records)
        #expect(letter.count == 1 && letter[0].count == 1)
        let record = letter[0][0]
        #expect(record.topic == Topics.defaultDeadLetters && record.value == Array("not json".utf8) && record.key == Array("s".utf8))
        #expect(record.headers.map(\.name) == ["error-code", "error-message", "source-topic", "source-partition", "source-offset"])
        #expect(record.headers.map { String(decoding: $0.value ?? [], as: UTF8.self) }.suffix(3)
                == [Topics.defaultAddressChanged, "2", "9"])
    }

    @Test func aBadEventWithAReadableSessionIsDeadLetteredAndAnsweredRejectedThroughTheGate() throws {
        var p = processor()
        var bad = Self.event("a", 3)
        bad.currency = .eur  // the cart's amounts are in USD: a currency mismatch
        let decided = p.process([Self.record(bad, offset: 4)])
        guard case .deadLettered(let code) = decided[0].disposition else { Issue.record("not dead-lettered"); return }
        #expect(code == .currencyMismatch)
        #expect(decided[0].chains.map { $0.records.map(\.topic) }
                == [[Topics.defaultDeadLetters], [Topics.defaultQuoteState], [Topics.defaultQuoteReplies]])
        let reply = try QuoteReply.decode(decided[0].chains[2].records[0].value)
        #expect(reply.sequence == 3 && reply.sessionID == "a")
        guard case .rejected(let reason) = reply.outcome else { Issue.record("not rejected"); return }
        #expect(reason.code == "currency_mismatch")
        // An older bad event no longer answers over the newer address.
        let older = p.process([Self.record(bad.with(sequence: 2), offset: 5)])
        #expect(older[0].chains.map { $0.records.map(\.topic) } == [[Topics.defaultDeadLetters]])
    }

    @Test func anEventInAnotherSessionsPartitionIsAnsweredButLeavesThisPartitionsStateAlone() {
        var p = processor()
        let decided = p.process([Self.record(Self.event("a", 1), offset: 0, key: "b")])
        #expect(decided.map(\.disposition) == [.deadLettered(.keyMismatch)])
        #expect(decided[0].chains.map { $0.records.map(\.topic) } == [[Topics.defaultDeadLetters], [Topics.defaultQuoteReplies]])
        #expect(p.gate.trackedSessions == 0)
    }

    @Test func onceToldToStopTheRestOfTheBatchIsLeftForReplay() {
        var p = processor()
        var asked = 0
        let decided = p.process([Self.record(Self.event("a", 1), offset: 0), Self.record(Self.event("b", 1), offset: 1),
                                 Self.record(Self.event("c", 1), offset: 2)]) {
            asked += 1
            return asked > 2  // asked before a, after a's quote, then before b
        }
        #expect(decided.map(\.disposition) == [.answered(outcome: "keep"), .leftForReplay, .leftForReplay])
        #expect(decided[1].chains.isEmpty && decided[2].chains.isEmpty)
    }

    @Test func idleSessionsAreForgottenWithTombstonesInTheirOwnPartition() {
        var p = processor()
        _ = p.process([Self.record(Self.event("old", 1), offset: 0)])
        clock.advance(by: 100)
        _ = p.process([Self.record(Self.event("new", 1, occurredAt: clock.now()), offset: 1)])
        clock.advance(by: 50)
        let tombstones = p.evictIdleSessions(idleTimeout: 120)
        #expect(tombstones == [KafkaOutgoingMessage.tombstone(topic: Topics.defaultQuoteState, key: Array("old".utf8), partition: 2)])
        #expect(p.gate.trackedSessions == 1)
    }

    /// A session's key is held inline up to 40 bytes and as text beyond: either way the state record
    /// and the reply carry the id exactly, and idle eviction's tombstone is keyed by it.
    @Test func idsOfFortyAndFortyOneBytesAndNonASCIIIdsAreKeptAsSpeltInStateRepliesAndTombstones() throws {
        var p = processor()
        let ids = [String(repeating: "a", count: 40), String(repeating: "b", count: 41), "caf\u{E9}-\u{212A}", "\u{212A}" + String(repeating: "k", count: 60)]
        for (n, id) in ids.enumerated() {
            let decided = p.process([Self.record(Self.event(id, 1), offset: Int64(n))])
            #expect(decided.map(\.disposition) == [.answered(outcome: "keep")], "\(id)")
            #expect(decided[0].chains[0].records[0].key == Array(id.utf8), "\(id)")
            #expect(Array(try QuoteReply.decode(decided[0].chains[1].records[0].value).sessionID.utf8) == Array(id.utf8), "\(id)")
            #expect(decided[0].sessionID.map { Array($0.utf8) } == Array(id.utf8))
        }
        clock.advance(by: 200)
        let tombstones = p.evictIdleSessions(idleTimeout: 120)
        #expect(Set(tombstones.map { $0.key! }) == Set(ids.map { Array($0.utf8) }))
        #expect(tombstones.allSatisfy(\.isTombstone) && p.gate.trackedSessions == 0)
    }

    /// "K" and the KELVIN SIGN in one batch: one session there too, so only the newer is answered.
    @Test func anIdAndItsCanonicalEquivalentInOneBatchAreOneSession() {
        var p = processor()
        let decided = p.process([Self.record(Self.event("Kabc", 1), offset: 0), Self.record(Self.event("\u{212A}abc", 2), offset: 1)])
        #expect(decided.map(\.disposition) == [.dropped(.superseded), .answered(outcome: "keep")])
        #expect(decided[1].chains[0].records[0].key == Array("\u{212A}abc".utf8))
    }

    // MARK: - Replay range after a takeover

    func range(end: Int64, _ records: [KafkaMessage]) -> ReplayRange {
        var range = ReplayRange(end: end)
        records.forEach { range.note($0) }
        return range
    }

    @Test func withinTheReplayRangeOnlyEachSessionsNewestEventIsAnswered() {
        var p = processor()
        let inRange = [Self.record(Self.event("a", 1), offset: 0), Self.record(Self.event("a", 2), offset: 1),
                       Self.record(Self.event("b", 1), offset: 2), Self.record(Self.event("a", 3), offset: 3)]
        p.restore(Self.tp, [:], replay: range(end: 4, inRange))
        // One record a batch: batch conflation alone would answer 1 and 2 as well.
        let decided = inRange.flatMap { p.process([$0]) }
        #expect(decided.map(\.disposition) == [.dropped(.superseded), .dropped(.superseded),
                                                .answered(outcome: "keep"), .answered(outcome: "keep")])
        #expect(decided.map(\.sequence) == [1, 2, 1, 3])
        #expect(p.replayRanges.isEmpty)  // past its end, the range is let go
    }

    @Test func pastTheReplayRangeEventsAreJudgedByTheGateAlone() {
        var p = processor()
        p.restore(Self.tp, [:], replay: range(end: 1, [Self.record(Self.event("a", 5), offset: 0)]))
        #expect(p.process([Self.record(Self.event("a", 5), offset: 0)]).map(\.disposition) == [.answered(outcome: "keep")])
        // An older address arriving after the range is stale (the gate took 5), a newer one answered.
        #expect(p.process([Self.record(Self.event("a", 4), offset: 1), Self.record(Self.event("a", 6), offset: 2)])
                .map(\.disposition) == [.dropped(.stale), .answered(outcome: "keep")])
    }

    @Test func aRefusedEventBelowTheRangesNewestGetsItsDeadLetterButNoReply() {
        var p = processor()
        var bad = Self.event("a", 1)
        bad.currency = .eur
        let records = [Self.record(bad, offset: 0), Self.record(Self.event("a", 2), offset: 1)]
        p.restore(Self.tp, [:], replay: range(end: 2, records))
        let decided = p.process([records[0]])
        #expect(decided[0].chains.map { $0.records.map(\.topic) } == [[Topics.defaultDeadLetters]])
        #expect(p.gate.trackedSessions == 0)
    }

    @Test func theReplayRangeCountsRefusedEventsWithAReadableSessionButNotAnotherSessionsRecords() {
        var bad = Self.event("a", 9)
        bad.currency = .eur
        let r = range(end: 10, [Self.record(Self.event("a", 2), offset: 0), Self.record(bad, offset: 1),
                                Self.record(Self.event("b", 7), offset: 2, key: "a"), Self.raw("garbage", offset: 3)])
        #expect(r.newest == ["a": 9])
        #expect(r.records == 4)
    }

    @Test func forgettingAPartitionForgetsItsSessionsOnly() {
        var p = processor()
        let other = KafkaTopicPartition(Topics.defaultAddressChanged, 3)
        p.restore(other, ["x": SequenceGate.Entry(sequence: 1, sourceOffset: 0, lastSeenMs: 0)])
        _ = p.process([Self.record(Self.event("a", 1), offset: 0)])
        p.forget([Self.tp])
        #expect(p.gate.trackedSessions == 1)
        #expect(p.gate.entry(session: "x", in: other) != nil)
    }

    /// A turn of one record takes a shorter way (no grouping by session): every kind of record must
    /// be decided exactly as it is beside another session's record in a batch.
    @Test func aRecordAloneIsDecidedExactlyAsBesideAnotherSessionsRecord() {
        var refused = Self.event("a", 6)
        refused.currency = .eur   // the cart is in dollars: dead-lettered, session and sequence readable
        var refusedStale = refused
        refusedStale.sequence = 1
        let records: [(String, KafkaMessage)] = [
            ("answered", Self.record(Self.event("a", 3), offset: 10)),
            ("stale", Self.record(Self.event("a", 1), offset: 11)),
            ("duplicate", Self.record(Self.event("a", 2), offset: 12)),
            ("redelivered", Self.record(Self.event("a", 2), offset: 1)),
            ("refused with a reply", Self.record(refused, offset: 13)),
            ("refused below the session's newest", Self.record(refusedStale, offset: 14)),
            ("key mismatch", Self.record(Self.event("a", 7), offset: 15, key: "b")),
            ("no key", KafkaMessage(topic: Self.tp.topic, partition: Self.tp.partition, offset: 16, key: nil,
                                    value: Self.event("a", 8).encode())),
            ("not JSON", Self.raw("garbage", offset: 17, key: "a")),
            ("expired", Self.record(Self.event("a", 9, occurredAt: WorkerHarness.now.addingTimeInterval(-60)), offset: 18)),
        ]
        for (kind, record) in records {
            var alone = processor(), batched = processor()
            for p in [0, 1] {
                // Both know session "a" at sequence 2 (offset 1) and draw the same span ids.
                var primed = processor()
                primed.spanIDs = SpanIDGenerator(seed: 7)
                _ = primed.process([Self.record(Self.event("a", 2), offset: 1)])
                if p == 0 { alone = primed } else { batched = primed }
            }
            let one = alone.process([record])
            let two = batched.process([record, Self.record(Self.event("z", 1), offset: 99)])
            #expect(one.count == 1 && two.count == 2, "\(kind)")
            #expect(one.first == two.first, "\(kind)")
            #expect(alone.gate.entry(session: "a", in: Self.tp) == batched.gate.entry(session: "a", in: Self.tp), "\(kind)")
        }
    }
}

private extension AddressChangeEvent {
    func with(sequence: Int64) -> AddressChangeEvent {
        var copy = self
        copy.sequence = sequence
        copy.eventID = "evt-\(sessionID)-\(sequence)"
        return copy
    }
}
