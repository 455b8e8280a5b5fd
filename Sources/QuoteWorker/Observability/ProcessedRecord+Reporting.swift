import Foundation
import Kafka
import QuoteContract
import ShippingRules

extension WorkerMetrics {
    /// Counts one decided record: every event ends in exactly one outcome (it got a reply) or one
    /// drop reason (it got none). A dead letter is `rejected` only when a reply went out with it.
    func record(_ record: ProcessedRecord) {
        var tally = DispositionTally()
        tally.add(record)
        self.record(tally)
    }

    /// Counts a turn's records at once: a counter is locked and looked up once per outcome or
    /// reason the turn had, not once per record.
    func record(_ tally: DispositionTally) {
        for (outcome, count) in tally.outcomes { finished(outcome, count: count) }
        for (reason, count) in tally.drops { dropped(reason, count: count) }
        if tally.deadLetters > 0 { deadLettered(count: tally.deadLetters) }
    }
}

/// What a turn decided, counted by outcome and by drop reason (a handful of each).
struct DispositionTally {
    private(set) var outcomes: [(String, Int)] = []
    private(set) var drops: [(DropReason, Int)] = []
    private(set) var deadLetters = 0

    mutating func add(_ record: ProcessedRecord) {
        switch record.disposition {
        case .answered(let outcome): count(outcome)
        case .dropped(let reason): count(reason)
        case .deadLettered:
            deadLetters += 1
            if record.hasReply { count(QuoteOutcome.Kind.rejected.rawValue) } else { count(.unanswerable) }
        case .leftForReplay: break
        }
    }

    private mutating func count(_ outcome: String) {
        if let i = outcomes.firstIndex(where: { $0.0 == outcome }) { outcomes[i].1 += 1 } else { outcomes.append((outcome, 1)) }
    }

    private mutating func count(_ reason: DropReason) {
        if let i = drops.firstIndex(where: { $0.0 == reason }) { drops[i].1 += 1 } else { drops.append((reason, 1)) }
    }
}

extension ProcessedRecord {
    /// Whether a reply is among the records produced for it.
    var hasReply: Bool { chains.contains { $0.records.contains(where: ReplyRecord.isReply) } }
}

extension Logger {
    /// One line per decided record: ids, outcome or reason, the event's trace; never the address or
    /// the cart. An id that could not be read is left out.
    func record(_ record: ProcessedRecord) {
        switch record.disposition {
        case .answered(let outcome):
            debug("replied", ids(record).merging(["outcome": .text(outcome)]) { a, _ in a }, trace: record.trace)
        case .dropped(let reason):
            debug("dropped", ids(record).merging(["reason": .text(reason.rawValue)]) { a, _ in a }, trace: record.trace)
        case .deadLettered(let code):
            var fields: [String: LogValue] = ["source_partition": .int(record.source.partition),
                                              "source_offset": .number(record.offset), "error_code": .text(code.rawValue)]
            if let session = record.sessionID { fields["session_id"] = .text(session) }
            if let field = record.field { fields["field"] = .text(field) }
            warning("event rejected", fields, trace: record.trace)
        case .leftForReplay: break
        }
    }

    private func ids(_ record: ProcessedRecord) -> [String: LogValue] {
        var fields: [String: LogValue] = [:]
        if let session = record.sessionID { fields["session_id"] = .text(session) }
        if let sequence = record.sequence { fields["sequence"] = .number(sequence) }
        if let event = record.eventID { fields["event_id"] = .text(event) }
        return fields
    }
}

extension DeliveryPipeline.Observer {
    /// Logs and counts what the pipeline reports.
    static func reporting(to logger: Logger, metrics: WorkerMetrics, clock: any Clock) -> DeliveryPipeline.Observer {
        var observer = DeliveryPipeline.Observer()
        observer.retried = { record, error in
            metrics.retriedDelivery()
            logger.warning("delivery failed; will retry", ["topic": .text(record.topic), "code": .text(error.name)])
        }
        observer.abandoned = { record, error, source, offset in
            metrics.abandonedRecord()
            logger.error("record refused for good; not retried", [
                "topic": .text(record.topic), "code": .text(error.name), "bytes": .int(record.value.count),
                "source_partition": .int(source.partition), "source_offset": .number(offset)])
        }
        // End to end: from the customer's action to the reply being on the broker.
        observer.answerDelivered = { occurredAt in metrics.observeEndToEnd(seconds: clock.now().timeIntervalSince(occurredAt)) }
        return observer
    }
}
