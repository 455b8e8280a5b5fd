import Synchronization

/// The worker's counters. Every event ends in exactly one outcome (`update`, `keep`,
/// `unserviceable`, `rejected`) or one drop reason, so `eventsIn == outcomes + drops` once work is finished.
public final class WorkerMetrics: Sendable {
    public struct Snapshot: Sendable, Equatable {
        public var eventsIn = 0
        /// Events answered, by outcome. A `rejected` event may have had no readable session, and then
        /// only its dead letter was written.
        public var outcomes: [String: Int] = [:]
        public var drops: [DropReason: Int] = [:]
        /// Events that could not be read; each one went to the dead-letter topic.
        public var deadLetters = 0
        public var deliveryRetries = 0
        /// Records a broker refused for good (too large for it); logged with their source offset.
        public var abandonedRecords = 0
        public var trackedSessions = 0

        public var totalDrops: Int { drops.values.reduce(0, +) }
        public var totalOutcomes: Int { outcomes.values.reduce(0, +) }
    }

    private let state = Mutex(Snapshot())

    public init() {}

    public func eventReceived(count: Int = 1) { state.withLock { $0.eventsIn += count } }
    public func finished(_ outcome: String) { state.withLock { $0.outcomes[outcome, default: 0] += 1 } }
    public func dropped(_ reason: DropReason) { state.withLock { $0.drops[reason, default: 0] += 1 } }
    public func deadLettered() { state.withLock { $0.deadLetters += 1 } }
    public func abandonedRecord() { state.withLock { $0.abandonedRecords += 1 } }
    public func retriedDelivery() { state.withLock { $0.deliveryRetries += 1 } }
    public func setTrackedSessions(_ n: Int) { state.withLock { $0.trackedSessions = n } }

    public func snapshot() -> Snapshot { state.withLock { $0 } }
}
