import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import ShippingRules
import Synchronization
import Testing

/// Events produced on a background thread, one session after another with rising sequences,
/// remembering the latest sequence delivered for each session: what must be answered in the end.
final class SteadyLoad: @unchecked Sendable {
    private let latest = Mutex<[String: Int64]>([:])
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)
    private let outstanding = DispatchGroup()

    init(_ cluster: SequenceCluster, sessions: Int, prefix: String, pauseMicroseconds: UInt32 = 2_000) {
        Thread { [self] in
            var sequence: Int64 = 0
            while running.load(ordering: .acquiring) {
                sequence += 1
                for s in 0..<sessions {
                    let event = cluster.event("\(prefix)-\(s)", sequence)
                    outstanding.enter()
                    try? cluster.producer.send(KafkaOutgoingMessage(topic: cluster.topics.addressChanged, key: Array(event.sessionID.utf8),
                                                               value: event.encode())) { [self] report in
                        if case .delivered = report {
                            latest.withLock { $0[event.sessionID] = max($0[event.sessionID] ?? 0, event.sequence) }
                        }
                        outstanding.leave()
                    }
                }
                usleep(pauseMicroseconds * UInt32(sessions))
            }
            done.signal()
        }.start()
    }

    /// Stops producing and waits for every delivery report; returns the latest sequence per session.
    func finish() -> [String: Int64] {
        running.store(false, ordering: .releasing)
        if done.wait(timeout: .now() + 60) == .timedOut { Issue.record("the load's producing thread did not stop within 60 s") }
        if outstanding.wait(timeout: .now() + 120) == .timedOut { Issue.record("delivery reports still missing after 120 s") }
        return latest.withLock { $0 }
    }
}

/// Reads the reply topic as it grows, keeping every reply's bytes by session and sequence.
final class ReplyWatch {
    private let reader: KafkaConsumer
    private(set) var replies: [String: [Int64: [[UInt8]]]] = [:]

    init(_ cluster: SequenceCluster) throws {
        var config = cluster.kafka
        config["group.id"] = "reply-watch-\(UUID().uuidString)"
        reader = try KafkaConsumer(configuration: config) { _ in }
        var start: [KafkaTopicPartition: Int64] = [:]
        for p in 0..<Int32(try reader.partitionCount(cluster.topics.quoteReplies)) { start[KafkaTopicPartition(cluster.topics.quoteReplies, p)] = 0 }
        try reader.assign(start)
    }

    deinit { reader.close() }

    /// Reads until every session has a reply to its latest sequence, or the time is up; true when it has.
    @discardableResult
    func awaitLatest(_ latest: [String: Int64], timeout: TimeInterval = 90) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            for message in reader.poll(maxMessages: 10_000, timeoutMs: 50) {
                guard let reply = try? QuoteReply.decode(message.value) else { continue }
                replies[reply.sessionID, default: [:]][reply.sequence, default: []].append(message.value)
            }
            if missing(latest).isEmpty { return true }
        }
        return false
    }

    func missing(_ latest: [String: Int64]) -> [String] {
        latest.filter { replies[$0.key]?[$0.value] == nil }.map(\.key).sorted()
    }

    /// (session, sequence) pairs published more than once with different bytes.
    var conflicting: [String] {
        replies.flatMap { session, bySequence in
            bySequence.filter { Set($0.value).count > 1 }.map { "\(session)#\($0.key)" }
        }
    }

    var publishedTwice: Int { replies.values.reduce(0) { $0 + $1.values.filter { $0.count > 1 }.count } }
}

/// Samples this process's resident memory every few milliseconds and keeps the highest reading.
final class MemorySampler: @unchecked Sendable {
    private let peak = Atomic<Int>(0)
    private let running = Atomic<Bool>(true)

    init() {
        Thread { [self] in
            while running.load(ordering: .acquiring) {
                let now = ResidentMemory.kibibytes().current
                if now > peak.load(ordering: .relaxed) { peak.store(now, ordering: .relaxed) }
                usleep(20_000)
            }
        }.start()
    }

    /// Stops sampling; the highest RSS seen, in KiB.
    func stop() -> Int {
        running.store(false, ordering: .releasing)
        return peak.load(ordering: .relaxed)
    }
}

/// A QuoteEngine that answers with the merchant's rules, except that it can be told to hold every
/// quote until released: a stalled rule evaluation, without touching the worker's code.
final class HeldQuoteEngine: QuoteEngine, @unchecked Sendable {
    private let rules: RuleLibrary
    private let condition = NSCondition()
    private var holding = false
    private var held = 0

    init(_ rules: RuleLibrary) { self.rules = rules }

    var version: String { rules.version }

    func hold() { condition.withLock { holding = true } }

    func release() {
        condition.withLock {
            holding = false
            condition.broadcast()
        }
    }

    /// Quotes waiting to be released now.
    var waiting: Int { condition.withLock { held } }

    func quote(_ request: QuoteRequest) -> QuoteOutcome {
        condition.lock()
        held += 1
        while holding { condition.wait() }
        held -= 1
        condition.unlock()
        return rules.quote(request)
    }
}
