import Foundation
import Kafka
import Synchronization

/// Produces each input record's chains, retries what failed, and says which offsets may be
/// committed. Confined to the loop's thread except `inbox`: a delivery report only records its
/// outcome there (and wakes the loop when there is something to do at once); the next record of
/// a chain is produced, and offsets are finished, on the loop's thread in `pump`.
///
/// A report that only finishes an offset does not wake the loop: the offset is committed at the
/// next commit interval anyway, and the loop turns at least once a poll timeout. Waking it for
/// each of them (two a reply) cost the worker a context switch and a turn per record.
///
/// Nothing here waits for room in the producer's queue: waiting on a queue that a down broker never
/// drains would leave the loop deaf to stop requests and rebalances. Records that find no room wait,
/// in order, and `waiting` grows, which is what the fetch throttle pauses on.
public final class DeliveryPipeline {
    /// What the pipeline tells the worker about, for its logs and metrics.
    public struct Observer {
        public var retried: (KafkaOutgoingMessage, KafkaError) -> Void = { _, _ in }
        /// A record the broker refused for good (too large for it): logged and let go.
        public var abandoned: (KafkaOutgoingMessage, KafkaError, KafkaTopicPartition, Int64) -> Void = { _, _, _, _ in }
        /// A reply's chain is delivered: when the event it answers happened.
        public var answerDelivered: (Date) -> Void = { _ in }
        public init() {}
    }

    /// One link of a chain in flight: the chain, which of its records, and the input record it finishes.
    struct Link: Sendable {
        let chain: DeliveryChain
        let index: Int
        let source: KafkaTopicPartition
        let offset: Int64
        var record: KafkaOutgoingMessage { chain.records[index] }
    }

    private let sink: any RecordSink
    private let observer: Observer
    private let inbox: Inbox
    private(set) var offsets = OffsetTracker()
    /// Links that found no room in the sink's queue, oldest first.
    private var awaitingRoom: [Link] = []
    private var awaitingHead = 0
    /// Links whose delivery failed for a reason a retry may cure.
    private var retries: [(link: Link, error: KafkaError)] = []
    /// The outcomes `pump` takes from the inbox, kept between turns so that taking them allocates nothing.
    private var taken: [(Link, KafkaDeliveryReport)] = []

    /// `wake` runs on the reporting thread after an outcome is recorded that the loop should act on
    /// soon (a chain's next record, a failure, room for records that wait): it should make the loop
    /// call `pump` (for example by interrupting its poll).
    public init(sink: any RecordSink, observer: Observer = Observer(), wake: @escaping @Sendable () -> Void = {}) {
        self.sink = sink
        self.observer = observer
        inbox = Inbox(wake: wake)
    }

    /// Registers an input record and produces the first record of each of its chains. With no
    /// chains the record is finished at once.
    public func submit(_ chains: [DeliveryChain], source: KafkaTopicPartition, offset: Int64) {
        offsets.register(source, offset: offset, deliveries: chains.count)
        for chain in chains { send(Link(chain: chain, index: 0, source: source, offset: offset)) }
    }

    /// Produces a record that finishes no input record (a tombstone): best effort, never retried.
    /// A lost tombstone only means the next owner loads an idle entry and evicts it again.
    public func sendUntracked(_ record: KafkaOutgoingMessage) {
        _ = try? sink.sendIfRoom(record) { _ in }
    }

    /// Handles the delivery outcomes recorded since the last call, then produces what waits for
    /// room and what is to be retried, for the partitions `owned` says are still this worker's.
    public func pump(owned: (KafkaTopicPartition) -> Bool) {
        inbox.takeAll(into: &taken)
        for i in taken.indices { handle(taken[i].0, taken[i].1) }
        taken.removeAll(keepingCapacity: true)
        while awaitingHead < awaitingRoom.count {
            let link = awaitingRoom[awaitingHead]
            if owned(link.source) {
                guard trySend(link, whenFull: .stop) else { break }
            }
            awaitingHead += 1
        }
        if awaitingHead == awaitingRoom.count {
            awaitingRoom.removeAll(keepingCapacity: true)
            awaitingHead = 0
        }
        let again = retries
        retries.removeAll()
        for (link, error) in again where owned(link.source) {
            observer.retried(link.record, error)
            send(link)
        }
        updateWaking()
    }

    /// While records wait for room or a retry, every report may free what they wait for.
    private func updateWaking() {
        inbox.wakeOnEveryReport.store(awaitingHead < awaitingRoom.count || !retries.isEmpty, ordering: .relaxed)
    }

    // MARK: - Offsets

    public func committable(_ partitions: Set<KafkaTopicPartition>) -> [KafkaTopicPartition: Int64] {
        offsets.committable(partitions)
    }

    public func markCommitted(_ committed: [KafkaTopicPartition: Int64]) { offsets.markCommitted(committed) }

    /// Input records not yet finished, in `partitions` (all when nil).
    public func unfinished(in partitions: Set<KafkaTopicPartition>? = nil) -> Int { offsets.unfinished(in: partitions) }

    /// Drops what is known of partitions that went to another worker; their late reports are ignored.
    public func forget(_ partitions: [KafkaTopicPartition]) {
        offsets.forget(partitions)
        let gone = Set(partitions)
        retries.removeAll { gone.contains($0.link.source) }
    }

    /// Records queued in the sink plus those held here: what the fetch throttle looks at.
    public var waiting: Int { sink.queueLength + (awaitingRoom.count - awaitingHead) + retries.count }

    // MARK: - Sending

    private enum WhenFull { case queue, stop }

    private func send(_ link: Link) {
        // Behind records already waiting for room, so a chain's order and the input order hold.
        if awaitingHead < awaitingRoom.count {
            awaitingRoom.append(link)
            return
        }
        _ = trySend(link, whenFull: .queue)
    }

    /// Sends one link; false when it found no room (and, with `.queue`, was put in line for room).
    private func trySend(_ link: Link, whenFull: WhenFull) -> Bool {
        let inbox = self.inbox
        do {
            if try sink.sendIfRoom(link.record, completion: { inbox.record(link, $0) }) { return true }
            if whenFull == .queue {
                awaitingRoom.append(link)
                updateWaking()
            }
            return false
        } catch where error.isPermanentForRecord {
            abandon(link, error)
            return true
        } catch {
            // Refused now (a fatal producer error is reported to the worker separately): try again later.
            retries.append((link, error))
            updateWaking()
            return true
        }
    }

    private func handle(_ link: Link, _ report: KafkaDeliveryReport) {
        switch report {
        case .delivered:
            if link.index + 1 < link.chain.records.count {
                send(Link(chain: link.chain, index: link.index + 1, source: link.source, offset: link.offset))
            } else {
                if let occurredAt = link.chain.answersEventOf { observer.answerDelivered(occurredAt) }
                offsets.finishDelivery(link.source, offset: link.offset)
            }
        case .failed(let error) where error.isPermanentForRecord:
            abandon(link, error)
        case .failed(let error):
            // librdkafka gave up after its own retries; try again rather than lose the reply.
            retries.append((link, error))
        }
    }

    /// A record no broker will take would block its partition forever if retried: let go, so the
    /// worker keeps consuming, and the rest of its chain with it.
    private func abandon(_ link: Link, _ error: KafkaError) {
        observer.abandoned(link.record, error, link.source, link.offset)
        offsets.finishDelivery(link.source, offset: link.offset)
    }

    /// Delivery outcomes waiting for the loop: the one place two threads meet.
    final class Inbox: Sendable {
        private let reports = Mutex<[(Link, KafkaDeliveryReport)]>([])
        private let wake: @Sendable () -> Void
        /// Set by the loop while records wait for room or a retry.
        let wakeOnEveryReport = Atomic<Bool>(false)

        init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

        func record(_ link: Link, _ report: KafkaDeliveryReport) {
            reports.withLock { $0.append((link, report)) }
            let failed = if case .failed = report { true } else { false }
            if failed || link.index + 1 < link.chain.records.count || wakeOnEveryReport.load(ordering: .relaxed) { wake() }
        }

        /// Swaps the outcomes recorded so far into `out` (which must be empty) for its buffer: a
        /// copy out would leave the inbox's buffer shared, and emptying it would allocate a new one.
        func takeAll(into out: inout [(Link, KafkaDeliveryReport)]) {
            precondition(out.isEmpty, "outcomes are taken into an empty list")
            reports.withLock { swap(&$0, &out) }
        }
    }
}
