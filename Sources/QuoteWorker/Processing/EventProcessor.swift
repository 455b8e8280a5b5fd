import Foundation
import Kafka
import QuoteContract
import ShippingRules

/// Turns a fetched batch into decisions: which records to produce for each input record, and why
/// any got no reply. It holds the sequence gate; it knows no client, thread or wall clock but the
/// injected one, so every rule of the sequence check is testable with exact values.
///
/// The rules it applies, in order, per record:
/// 1. Unreadable → the dead letter, plus a `rejected` reply when session and sequence were
///    readable, the gate takes them and no newer event of the session is in the batch or the
///    replay range (an old bad event never answers over a newer address).
/// 2. The gate: below the session's highest sequence → `stale`; equal from another record → `duplicate`.
/// 3. Conflation: a newer event of the session later in the same batch, or in the replay range of
///    a partition just taken over (see `ReplayRange`) → `superseded`.
/// 4. The gate takes it; past its deadline → `expired` (the state is still written, so an older
///    event arriving later still counts as stale).
/// 5. Quoted at `occurred_at` (a replay after a crash gives the very same update), asked again
///    whether it is still the newest, and answered: the state record and the reply are produced
///    together; the record's offset is finished once both are delivered.
public struct EventProcessor {
    public struct Settings: Sendable {
        public var topics: Topics
        /// An event without `reply_by` expires this long after `occurred_at`; nil: never.
        public var defaultTimeToLive: TimeInterval?

        public init(topics: Topics, defaultTimeToLive: TimeInterval?) {
            self.topics = topics
            self.defaultTimeToLive = defaultTimeToLive
        }
    }

    public private(set) var gate = SequenceGate()
    /// Per partition taken over, until its records are past the range.
    public private(set) var replayRanges: [KafkaTopicPartition: ReplayRange] = [:]
    /// Told how long each quote took (for the quote-duration histogram).
    public var onQuoted: ((Duration) -> Void)?
    /// Span ids for the replies' `traceparent` (random unless a test seeds it).
    public var spanIDs = SpanIDGenerator.random()
    private let settings: Settings
    private let engine: any QuoteEngine
    private let clock: any Clock

    public init(settings: Settings, engine: any QuoteEngine, clock: any Clock) {
        self.settings = settings
        self.engine = engine
        self.clock = clock
    }

    /// Decides every record of `batch`, in order. `shouldStop` is asked before each record: once it
    /// says yes the rest is left for the next owner to replay.
    public mutating func process(_ batch: [KafkaMessage], shouldStop: () -> Bool = { false }) -> [ProcessedRecord] {
        var decided: [ProcessedRecord] = []
        decided.reserveCapacity(batch.count)
        process(batch, shouldStop: shouldStop) { decided.append($0) }
        return decided
    }

    /// The same, handing each decision to `emit` as soon as it is made, so that its records can be
    /// produced while the rest of the batch is quoted.
    public mutating func process(_ batch: [KafkaMessage], shouldStop: () -> Bool = { false },
                                 emit: (ProcessedRecord) -> Void) {
        let now = clock.now()
        if batch.count == 1 { return processAlone(batch, now: now, shouldStop: shouldStop, emit: emit) }
        // Each session of the batch gets a number, by its records' key (a record is read only when
        // its key is its session id): it finds the session's cart read before (see `ScannedCarts`)
        // and its newest sequence, and the key is hashed once a record (the map is sized once).
        var sessionOfKey: [RecordKey: Int] = [:]
        sessionOfKey.reserveCapacity(batch.count)
        var slotOfEvent = [Int](repeating: -1, count: batch.count)
        var recordsOfSession: [Int32] = []
        var allKeysASCII = true
        for i in batch.indices {
            guard let key = batch[i].key else { continue }
            let recordKey = RecordKey(key)
            let slot = Self.slot(&sessionOfKey[recordKey], next: recordsOfSession.count)
            if slot == recordsOfSession.count {
                recordsOfSession.append(1)
                allKeysASCII = allKeysASCII && recordKey.isASCII
            } else {
                recordsOfSession[slot] += 1
            }
            slotOfEvent[i] = slot
        }
        let sessions = recordsOfSession.count
        var carts = ScannedCarts(recordsOfSession: recordsOfSession)
        let read = batch.indices.map { i in
            IncomingEvent.read(batch[i].value, key: batch[i].key, session: slotOfEvent[i] >= 0 ? slotOfEvent[i] : nil, carts: &carts)
        }
        // Session ids whose bytes differ but that are equal as text (canonically equivalent
        // Unicode, so never both ASCII) are one session to the sequence gate: one for conflation too.
        var group = Array(0..<sessions)
        if !allKeysASCII {
            var groupOfSession: [SessionKey: Int] = [:]
            for i in read.indices {
                guard case .success(let event) = read[i] else { continue }
                group[slotOfEvent[i]] = Self.slot(&groupOfSession[event.session], next: slotOfEvent[i])
            }
        }
        // A refused event whose session and sequence can be read counts too, as in the replay
        // range: its `rejected` reply is an answer like any other.
        func groupOfRefused(_ rejection: EventRejection, _ i: Int) -> Int? {
            guard rejection.code != .keyMismatch, rejection.sequence != nil, let session = rejection.sessionID else { return nil }
            if slotOfEvent[i] >= 0, let key = batch[i].key, key.elementsEqual(session.utf8) { return group[slotOfEvent[i]] }
            return sessionOfKey[RecordKey(Array(session.utf8))].map { group[$0] }
        }
        var newest = [Int64](repeating: .min, count: sessions)
        for i in read.indices {
            switch read[i] {
            case .success(let event):
                newest[group[slotOfEvent[i]]] = max(newest[group[slotOfEvent[i]]], event.sequence)
            case .failure(let rejection):
                if let g = groupOfRefused(rejection, i), let sequence = rejection.sequence { newest[g] = max(newest[g], sequence) }
            }
        }
        // The batch's records are read in place (`batch[i]`), not bound to copies: a record is
        // four references, counted up and down for each copy.
        for i in batch.indices {
            if shouldStop() {
                emit(ProcessedRecord(source: batch[i].topicPartition, offset: batch[i].offset, disposition: .leftForReplay))
                continue
            }
            switch read[i] {
            case .success(let event):
                emit(answer(event, batch[i], newestInBatch: newest[group[slotOfEvent[i]]], now: now, shouldStop: shouldStop))
            case .failure(let rejection):
                emit(deadLetter(batch[i], rejection, newestInBatch: groupOfRefused(rejection, i).map { newest[$0] }, now: now))
            }
            // Most turns have no partition just taken over: no lookup then.
            if !replayRanges.isEmpty, let range = replayRanges[batch[i].topicPartition], batch[i].offset + 1 >= range.end {
                replayRanges[batch[i].topicPartition] = nil  // past the range: its memory goes
            }
        }
    }

    /// A batch of one record, the usual turn below saturation: decided as `process` decides it,
    /// without the maps and lists that group a batch's records by session (eight allocations a
    /// turn, more than the record's own read at a thousand events a second).
    private mutating func processAlone(_ batch: [KafkaMessage], now: Date, shouldStop: () -> Bool,
                                       emit: (ProcessedRecord) -> Void) {
        if shouldStop() {
            return emit(ProcessedRecord(source: batch[0].topicPartition, offset: batch[0].offset, disposition: .leftForReplay))
        }
        switch IncomingEvent.read(batch[0].value, key: batch[0].key) {
        case .success(let event):
            emit(answer(event, batch[0], newestInBatch: event.sequence, now: now, shouldStop: shouldStop))
        case .failure(let rejection):
            // Its own sequence counts where a batch would have grouped it with its key's session.
            var newest: Int64?
            if rejection.code != .keyMismatch, let sequence = rejection.sequence, let session = rejection.sessionID,
               let key = batch[0].key, key.elementsEqual(session.utf8) {
                newest = sequence
            }
            emit(deadLetter(batch[0], rejection, newestInBatch: newest, now: now))
        }
        if !replayRanges.isEmpty, let range = replayRanges[batch[0].topicPartition], batch[0].offset + 1 >= range.end {
            replayRanges[batch[0].topicPartition] = nil
        }
    }

    /// The slot in `entry` (a map's value, read and written in one access), `next` when it had none.
    private static func slot(_ entry: inout Int?, next: Int) -> Int {
        if let slot = entry { return slot }
        entry = next
        return next
    }

    private mutating func answer(_ event: IncomingEvent, _ message: KafkaMessage, newestInBatch: Int64, now: Date,
                                 shouldStop: () -> Bool) -> ProcessedRecord {
        let tp = message.topicPartition, offset = message.offset, trace = TraceContext(of: message)
        func dropped(_ reason: DropReason, _ chains: [DeliveryChain] = []) -> ProcessedRecord {
            ProcessedRecord(source: tp, offset: offset, disposition: .dropped(reason), chains: chains,
                            session: event.session, sequence: event.sequence, eventID: event.eventID, trace: trace)
        }
        let newestKnown = replayRanges.isEmpty ? newestInBatch
            : max(newestInBatch, replayRanges[tp]?.newest(event.session, at: offset) ?? .min)
        // Stale or duplicate first, then superseded, then taken: SequenceGate.admit.
        let entry: SequenceGate.Entry
        switch gate.admit(session: event.session, sequence: event.sequence, offset: offset, newestKnown: newestKnown,
                          nowMs: RFC3339.epochMilliseconds(now), in: tp) {
        case .dropped(let reason): return dropped(reason)
        case .taken(let taken): entry = taken
        }
        let state = stateRecord(event.session, entry, tp)
        if isExpired(event, now: now) { return dropped(.expired, [DeliveryChain([state])]) }

        let quoteStarted = ContinuousClock.now
        let result = engine.quote(event.quoteRequest(now: event.occurredAt))
        onQuoted?(ContinuousClock.now - quoteStarted)
        // The contract's rule 2: asked again just before publishing.
        guard gate.isLatest(session: event.session, sequence: event.sequence, in: tp) else { return dropped(.superseded) }
        // A quote that outlasted the stall limit: the partition may have a new owner by now, whose
        // newer state record this one could land after. Left for that owner's replay.
        if shouldStop() { return ProcessedRecord(source: tp, offset: offset, disposition: .leftForReplay) }
        // The kind is read first, so that the outcome is handed to the reply, not copied into it.
        let kind = result.kind.rawValue
        let reply = QuoteReply(sessionID: event.session.text, sequence: event.sequence, eventID: event.eventID,
                               outcome: result, rulesVersion: engine.version, computedAt: clock.now())
        let replyRecord = ReplyRecord.reply(reply, topic: settings.topics.quoteReplies, parent: trace, spanIDs: &spanIDs)
        return ProcessedRecord(source: tp, offset: offset, disposition: .answered(outcome: kind),
                               chains: [DeliveryChain([state]), DeliveryChain([replyRecord], answersEventOf: event.occurredAt)],
                               session: event.session, sequence: event.sequence, eventID: event.eventID, trace: trace)
    }

    private func isExpired(_ event: IncomingEvent, now: Date) -> Bool {
        if let replyBy = event.replyBy { return replyBy <= now }
        if let ttl = settings.defaultTimeToLive { return event.occurredAt.addingTimeInterval(ttl) <= now }
        return false
    }

    /// `newestInBatch`: the newest sequence of the rejection's session in the batch, when it has one.
    private mutating func deadLetter(_ message: KafkaMessage, _ rejection: EventRejection, newestInBatch: Int64?,
                                     now: Date) -> ProcessedRecord {
        let tp = message.topicPartition
        var chains = [DeliveryChain([ReplyRecord.deadLetter(message, rejection: rejection, topic: settings.topics.deadLetters)])]
        let rejectedSession = rejection.sessionID.map { SessionKey($0) }
        if let session = rejectedSession, let sessionID = rejection.sessionID, let sequence = rejection.sequence {
            let reply = ReplyRecord.reply(
                QuoteReply(sessionID: sessionID, sequence: sequence, eventID: nil, outcome: .rejected(rejection.quoteRejection),
                           rulesVersion: engine.version, computedAt: clock.now()),
                topic: settings.topics.quoteReplies, parent: TraceContext(of: message), spanIDs: &spanIDs)
            if rejection.code == .keyMismatch {
                // It sits in another session's partition: answered, but that partition's state is not its own.
                chains.append(DeliveryChain([reply]))
            } else if gate.verdict(session: session, sequence: sequence, offset: message.offset, in: tp) == .take,
                      sequence >= newestInBatch ?? .min,
                      sequence >= replayRanges[tp]?.newest(session, at: message.offset) ?? .min {
                let entry = gate.take(session: session, sequence: sequence, offset: message.offset,
                                      nowMs: RFC3339.epochMilliseconds(now), in: tp)
                chains.append(DeliveryChain([stateRecord(session, entry, tp)]))
                chains.append(DeliveryChain([reply]))
            }
        }
        return ProcessedRecord(source: tp, offset: message.offset, disposition: .deadLettered(rejection.code), chains: chains,
                               session: rejectedSession, sequence: rejection.sequence, field: rejection.field,
                               trace: TraceContext(of: message))
    }

    private func stateRecord(_ session: SessionKey, _ entry: SequenceGate.Entry, _ tp: KafkaTopicPartition) -> KafkaOutgoingMessage {
        KafkaOutgoingMessage(topic: settings.topics.quoteState, key: session.utf8,
                             value: entry.encode(), partition: tp.partition)
    }

    // MARK: - Partition state

    /// Sets a partition's sessions as read back from the state topic, and what its replay range
    /// holds, before its first record.
    public mutating func restore(_ partition: KafkaTopicPartition, _ entries: [SessionKey: SequenceGate.Entry],
                                 replay: ReplayRange? = nil) {
        gate.restore(partition, entries)
        replayRanges[partition] = replay
    }

    /// Forgets partitions that went to another worker.
    public mutating func forget(_ partitions: [KafkaTopicPartition]) {
        gate.forget(partitions)
        for tp in partitions { replayRanges[tp] = nil }
    }

    /// Forgets sessions idle for longer than `idleTimeout` and returns the tombstones that delete
    /// their state, so memory and the state topic stay bounded by the sessions that are alive.
    public mutating func evictIdleSessions(idleTimeout: TimeInterval) -> [KafkaOutgoingMessage] {
        let cutoff = RFC3339.epochMilliseconds(clock.now()) - Int64(idleTimeout * 1000)
        return gate.evictIdle(before: cutoff).map { partition, session in
            KafkaOutgoingMessage.tombstone(topic: settings.topics.quoteState, key: session.utf8, partition: partition)
        }
    }
}
