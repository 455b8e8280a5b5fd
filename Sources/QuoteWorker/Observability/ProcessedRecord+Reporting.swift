import Foundation
import Kafka
import QuoteContract
import ShippingRules

extension WorkerMetrics {
    /// Counts one decided record: every event ends in exactly one outcome or one drop reason.
    func record(_ record: ProcessedRecord) {
        switch record.disposition {
        case .answered(let outcome): finished(outcome)
        case .dropped(let reason): dropped(reason)
        case .deadLettered:
            deadLettered()
            finished(QuoteOutcome.Kind.rejected.rawValue)
        case .leftForReplay: break
        }
    }
}

extension Logger {
    /// One line per decided record: ids, outcome or reason, never the address or the cart.
    func record(_ record: ProcessedRecord) {
        switch record.disposition {
        case .answered(let outcome):
            debug("replied", ["session_id": .text(record.sessionID ?? ""), "sequence": .number(record.sequence ?? 0),
                              "event_id": .text(record.eventID ?? ""), "outcome": .text(outcome)])
        case .dropped(let reason):
            debug("dropped", ["session_id": .text(record.sessionID ?? ""), "sequence": .number(record.sequence ?? 0),
                              "event_id": .text(record.eventID ?? ""), "reason": .text(reason.rawValue)])
        case .deadLettered(let code):
            warning("event rejected", ["session_id": .text(record.sessionID ?? ""),
                                       "source_partition": .int(record.source.partition), "source_offset": .number(record.offset),
                                       "error_code": .text(code.rawValue), "field": .text(record.field ?? "")])
        case .leftForReplay: break
        }
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
