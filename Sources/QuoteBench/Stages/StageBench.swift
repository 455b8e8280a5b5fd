import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import ShippingRules

/// `shipquote bench stages`: the worker's own work on one event, stage by stage and without
/// Kafka, on the bench's events (8 addresses, a 2-item cart): reading (the scan every event
/// gets, with and without its cart seen before in the batch, the quote request a quoted one
/// gets, and the full decoder the scan falls back to), quoting, and encoding the reply.
/// It tells where a worker's CPU goes per event; `bench` tells what that means end to end.
public struct StageBench {
    let rules: RuleLibrary
    /// 64 distinct events (sessions 0-63, sequences 1-5), as encoded, with their keys.
    let encoded: [(value: [UInt8], key: [UInt8])]
    let events: [AddressChangeEvent]
    let replies: [QuoteReply]

    public init(rules: RuleLibrary) {
        self.rules = rules
        let occurredAt = Date(timeIntervalSince1970: 1_791_633_600)   // fixed, so runs compare
        let merchant = rules.ruleSets.count > 1 ? rules.ruleSets[0].merchant : nil
        encoded = (0..<64).map { n in
            let planned = LoadPlan.Event(session: Int32(n), sequence: Int32(n % 5 + 1))
            return (BenchEvents.encode(planned, merchant: merchant, occurredAt: occurredAt),
                    Array(BenchEvents.sessionID(Int32(n)).utf8))
        }
        events = encoded.map { try! AddressChangeEvent.decode($0.value, key: $0.key).get() }
        let results = events.map { rules.quote($0.quoteRequest(now: $0.occurredAt)) }
        replies = zip(events, results).map { event, result in
            QuoteReply(sessionID: event.sessionID, sequence: event.sequence, eventID: event.eventID, outcome: result,
                       rulesVersion: rules.version, computedAt: occurredAt)
        }
    }

    /// The stages' names, in the order they run; `run(only:)` takes the first word of one.
    public static let stageNames = [
        "read (scan, then the quote request)", "scan only (a superseded event's cost)",
        "scan, its cart seen before in the batch", "decode (full decoder, the fallback)", "quote", "encode reply",
        "worker turn (whole decision, no Kafka)", "worker turn, one event a turn", "backlog turn (9 in 10 superseded)",
    ]

    /// Whether `word` picks out at least one stage (see `run(only:)`).
    public static func names(_ word: String) -> Bool { stageNames.contains { $0.hasPrefix(word) } }

    /// Times each stage over `count` events on this thread, handing each line to `line` as soon as it is measured.
    /// With `only`, just the stages whose name starts with it (`quote`, `scan`, `worker turn`…), so that
    /// a profiler run over the bench counts that stage alone.
    public func run(count: Int, only: String? = nil, line: (String) -> Void) {
        let encoded = self.encoded, replies = self.replies, rules = self.rules
        // Each request behind a reference, handed to the rules where it lies: the worker hands over
        // the request it has just made, and a copy out of an array (a retain and a release of each
        // of its texts and lists, about 3% of the stage's instructions) was the bench's cost, not the quote's.
        let requests = events.map { HeldRequest($0.quoteRequest(now: $0.occurredAt)) }
        line("stages  \(count) events, \(encoded.count) distinct (\(encoded[0].value.count) bytes each); one thread")
        var sink = 0
        /// Microseconds per event of each stage run, by its index in `stageNames`.
        var took: [Int: Double] = [:]
        func runs(_ name: String) -> Bool { only.map { name.hasPrefix($0) } ?? true }
        func measure(_ name: String, _ count: Int, _ line: (String) -> Void, _ body: (Int) -> Void) {
            if runs(name) { took[Self.stageNames.firstIndex(of: name)!] = self.measure(name, count, line, body) }
        }
        // What the worker makes of a quoted event before the quote: the scan, then the request.
        measure(Self.stageNames[0], count, line) { i in
            let e = encoded[i % encoded.count]
            if case .success(let event) = IncomingEvent.read(e.value, key: e.key) {
                sink &+= event.quoteRequest(now: event.occurredAt).cart.items.count
            }
        }
        // A superseded event read alone, as the worker reads a record (`IncomingEvent`, the scanned
        // event kept in an object), without the quote request it never gets. (A batch's read also
        // keeps the cart for the session's next record, when it has one.)
        measure(Self.stageNames[1], count, line) { i in
            let e = encoded[i % encoded.count]
            if case .success(let event) = IncomingEvent.read(e.value, key: e.key) { sink &+= Int(event.sequence) }
        }
        // A backlog's superseded event as the worker reads it: its session's earlier event in the
        // batch had the same cart (a cart does not change while the customer picks addresses), so
        // the cart's bytes are compared with that one's instead of scanned. Every session's cart
        // is read once before the clock starts.
        var carts = ScannedCarts(recordsOfSession: Array(repeating: Int32.max, count: encoded.count))
        if runs(Self.stageNames[2]) {
            for (n, e) in encoded.enumerated() { _ = IncomingEvent.read(e.value, key: e.key, session: n, carts: &carts) }
        }
        measure(Self.stageNames[2], count, line) { i in
            let n = i % encoded.count
            if case .success(let event) = IncomingEvent.read(encoded[n].value, key: encoded[n].key, session: n, carts: &carts) {
                sink &+= Int(event.sequence)
            }
        }
        measure(Self.stageNames[3], count, line) { i in
            let e = encoded[i % encoded.count]
            if case .success(let event) = AddressChangeEvent.decodeThoroughly(e.value, checkingKey: true, key: e.key) {
                sink &+= Int(event.sequence)
            }
        }
        measure(Self.stageNames[4], count, line) { i in
            if case .update = requests[i % requests.count].quoted(by: rules) { sink &+= 1 }
        }
        // Each reply behind a reference, as the requests above: the worker encodes the reply it has
        // just made, and a copy out of the array (a retain and a release of each of its texts and
        // lists) was the bench's cost, not the encoder's.
        let held = replies.map(HeldReply.init)
        measure(Self.stageNames[5], count, line) { i in sink &+= held[i % held.count].encoded().count }
        if runs(Self.stageNames[6]) { measureTurns(count, line) { sink &+= $0 } }
        if runs(Self.stageNames[7]) {
            let lone = loneTurn()
            measure(Self.stageNames[7], count, line) { i in sink &+= lone(i) }
        }
        if runs(Self.stageNames[8]) { measureBacklogTurns(count, line) { sink &+= $0 } }
        if sink == 42 { line("") }   // keeps the work from being optimised away
        Self.verdicts(took).forEach(line)
    }

    /// Issue 12's targets for the worker's own work, from the stages measured (by index in
    /// `stageNames`): a quoted event (read, quote and encode) in at most 3 µs, a superseded one
    /// (its scan, alone or with its cart seen earlier in the batch) in at most 0.5 µs. A line for
    /// each whose stages all ran.
    static func verdicts(_ took: [Int: Double]) -> [String] {
        func verdict(_ micros: Double, _ target: Double) -> String { micros <= target ? "met" : "not met" }
        func name(_ text: String) -> String { text.padding(toLength: 40, withPad: " ", startingAt: 0) }
        var lines: [String] = []
        if let read = took[0], let quote = took[4], let encode = took[5] {
            let quoted = read + quote + encode
            lines.append(name("quoted event (read + quote + encode)")
                + String(format: "%7.2f µs each", quoted) + "  issue 12: ≤ 3 µs, \(verdict(quoted, 3))")
        }
        if let alone = took[1], let seen = took[2] {
            lines.append(name("superseded event (alone / cart seen)")
                + String(format: "%7.2f / %.2f µs", alone, seen) + "  issue 12: ≤ 0.5 µs, \(verdict(alone, 0.5)) / \(verdict(seen, 0.5))")
        }
        return lines
    }

    /// A worker's whole decision per event, without Kafka: the 64 events as one fetched batch
    /// (64 sessions, each answered) through a fresh `EventProcessor` — read, sequence check,
    /// conflation, quote, state record and reply record with its headers. What it costs beyond
    /// the stages above is the processor's own share.
    private func measureTurns(_ count: Int, _ line: (String) -> Void, _ sink: (Int) -> Void) {
        let turn = workerTurn()
        var produced = 0
        for _ in 0..<max(1, min(count, 1_000) / encoded.count) { produced &+= turn() }   // warm up
        let turns = max(1, count / encoded.count)
        let start = uptimeNanoseconds()
        for _ in 0..<turns { produced &+= turn() }
        let perEvent = Double(uptimeNanoseconds() - start) / Double(turns * encoded.count) / 1_000
        sink(produced)
        line(Self.stageNames[6].padding(toLength: 40, withPad: " ", startingAt: 0)
            + String(format: "%7.2f µs each  %10.0f /s", perEvent, 1e6 / perEvent))
    }

    /// A saturated worker's turn: a full fetched batch (2,000 records, the default `max-batch`) of
    /// 200 sessions with 10 events each, so nine in ten are superseded, as in a backlog. Per
    /// record of the batch.
    private func measureBacklogTurns(_ count: Int, _ line: (String) -> Void, _ sink: (Int) -> Void) {
        let turn = backlogTurn()
        var produced = turn()   // warm up
        let turns = max(1, count / 2_000)
        let start = uptimeNanoseconds()
        for _ in 0..<turns { produced &+= turn() }
        let perRecord = Double(uptimeNanoseconds() - start) / Double(turns * 2_000) / 1_000
        sink(produced)
        line(Self.stageNames[8].padding(toLength: 40, withPad: " ", startingAt: 0)
            + String(format: "%7.2f µs each  %10.0f /s", perRecord, 1e6 / perRecord))
    }

    /// One turn over the backlog batch by a fresh processor; returns how many records it would
    /// produce (a state record and a reply for each session's newest event).
    func backlogTurn() -> () -> Int {
        let topics = Topics()
        let occurredAt = events[0].occurredAt
        let merchant = rules.ruleSets.count > 1 ? rules.ruleSets[0].merchant : nil
        let batch = (0..<2_000).map { n in
            let planned = LoadPlan.Event(session: Int32(n % 200), sequence: Int32(n / 200 + 1))
            return KafkaMessage(topic: topics.addressChanged, partition: Int32(n % 8), offset: Int64(n / 8),
                                key: Array(BenchEvents.sessionID(planned.session).utf8),
                                value: BenchEvents.encode(planned, merchant: merchant, occurredAt: occurredAt))
        }
        let settings = EventProcessor.Settings(topics: topics, defaultTimeToLive: nil)
        let clock = FixedClock(date: occurredAt), rules = self.rules
        return {
            var processor = EventProcessor(settings: settings, engine: rules, clock: clock)
            var records = 0
            processor.process(batch) { records += $0.chains.reduce(0) { $0 + $1.records.count } }
            return records
        }
    }

    /// A worker below saturation: each turn fetches one record. The 64 events in turn, each its own
    /// batch, through one processor (a record seen again is its own redelivery, answered again);
    /// returns how many records the turn would produce.
    func loneTurn() -> (Int) -> Int {
        let topics = Topics()
        let batches = encoded.enumerated().map { n, e in
            [KafkaMessage(topic: topics.addressChanged, partition: Int32(n % 8), offset: Int64(n), key: e.key, value: e.value)]
        }
        var processor = EventProcessor(settings: EventProcessor.Settings(topics: topics, defaultTimeToLive: nil),
                                       engine: rules, clock: FixedClock(date: events[0].occurredAt))
        return { i in
            var records = 0
            processor.process(batches[i % batches.count]) { records += $0.chains.reduce(0) { $0 + $1.records.count } }
            return records
        }
    }

    /// One turn over the 64 events as a fetched batch, by a fresh processor; returns how many
    /// records it would produce (a state record and a reply for each answered event).
    func workerTurn() -> () -> Int {
        let topics = Topics()
        let batch = encoded.enumerated().map { n, e in
            KafkaMessage(topic: topics.addressChanged, partition: Int32(n % 8), offset: Int64(n), key: e.key, value: e.value)
        }
        let settings = EventProcessor.Settings(topics: topics, defaultTimeToLive: nil)
        let clock = FixedClock(date: events[0].occurredAt)
        let rules = self.rules
        return {
            var processor = EventProcessor(settings: settings, engine: rules, clock: clock)
            var records = 0
            processor.process(batch) { records += $0.chains.reduce(0) { $0 + $1.records.count } }
            return records
        }
    }

    private final class HeldReply {
        let reply: QuoteReply
        init(_ reply: QuoteReply) { self.reply = reply }
        func encoded() -> [UInt8] { reply.encode() }
    }

    private final class HeldRequest {
        let request: QuoteRequest
        init(_ request: QuoteRequest) { self.request = request }
        /// Asked from inside, where the request is its own for the call: handed over from
        /// outside, it was copied first.
        func quoted(by rules: RuleLibrary) -> QuoteOutcome { rules.quote(request) }
    }

    /// The bench's events all happened at one instant: the turn runs at it, so none expires.
    private struct FixedClock: QuoteWorker.Clock {
        let date: Date
        func now() -> Date { date }
    }

    @discardableResult
    private func measure(_ name: String, _ count: Int, _ line: (String) -> Void, _ body: (Int) -> Void) -> Double {
        for i in 0..<min(count, 1_000) { body(i) }   // warm up
        let start = uptimeNanoseconds()
        for i in 0..<count { body(i) }
        let nanoseconds = Double(uptimeNanoseconds() - start)
        let perEvent = nanoseconds / Double(count) / 1_000
        line(name.padding(toLength: 40, withPad: " ", startingAt: 0)
            + String(format: "%7.2f µs each  %10.0f /s", perEvent, 1e6 / perEvent))
        return perEvent
    }
}
