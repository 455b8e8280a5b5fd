import Foundation

/// What was sent and what came back, shared by the generator (which stamps each event as it
/// produces it) and the reply reader (which stamps each reply as it receives it). Matching is by
/// the reply's `session-id` and `sequence` headers.
///
/// A reply is a stale one wrongly published when its sequence is below one already published for
/// its session: CONTRACT's "answers to stale addresses are never published". Replies of a session
/// share its partition, so the order the reader sees is the order they were published.
final class ReplyLedger: @unchecked Sendable {
    private let lock = NSLock()
    private let plan: LoadPlan
    /// Event index of each session's sequence n at `[session][n - 1]`.
    private let eventIndex: [[Int32]]
    private var sentAt: [UInt64]
    private var latestSent: [Int32]
    private var highestReplied: [Int32]
    private(set) var latencies: [Double] = []
    private var replies = 0
    private var stale = 0
    private var duplicates = 0
    private var unknown = 0
    private var warmupReplies = 0
    private var lastReplyAt: UInt64 = 0

    init(plan: LoadPlan) {
        self.plan = plan
        var index = [[Int32]](repeating: [], count: plan.sessions)
        for (i, e) in plan.events.enumerated() { index[Int(e.session)].append(Int32(i)) }
        eventIndex = index
        sentAt = [UInt64](repeating: 0, count: plan.events.count)
        latestSent = [Int32](repeating: 0, count: plan.sessions)
        highestReplied = [Int32](repeating: 0, count: plan.sessions)
        latencies.reserveCapacity(plan.events.count)
    }

    /// The generator produced event `i` at `now` (uptime nanoseconds).
    func sent(_ i: Int, at now: UInt64) {
        let e = plan.events[i]
        lock.withLock {
            sentAt[i] = now
            latestSent[Int(e.session)] = max(latestSent[Int(e.session)], e.sequence)
        }
    }

    /// The reader received a reply with these headers at `now`.
    func received(sessionHeader: [UInt8]?, sequenceHeader: [UInt8]?, at now: UInt64) {
        if let sessionHeader, BenchEvents.sessionIndex(sessionHeader, prefix: BenchEvents.warmupPrefix) != nil {
            return lock.withLock { warmupReplies += 1 }
        }
        guard let sessionHeader, let sequenceHeader, let session = BenchEvents.sessionIndex(sessionHeader),
              let sequence = BenchEvents.decimal(sequenceHeader), session < plan.sessions,
              sequence >= 1, sequence <= eventIndex[session].count else {
            lock.withLock { unknown += 1 }
            return
        }
        lock.withLock {
            replies += 1
            lastReplyAt = now
            let sentTime = sentAt[Int(eventIndex[session][sequence - 1])]
            if sentTime > 0 { latencies.append(Double(now &- sentTime) / 1e9) }
            let seq = Int32(sequence)
            if seq < highestReplied[session] { stale += 1 } else if seq == highestReplied[session] { duplicates += 1 } else { highestReplied[session] = seq }
        }
    }

    struct Tally {
        var replies = 0
        var staleReplies = 0
        var duplicateReplies = 0
        var unknownReplies = 0
        /// Sessions whose latest sent sequence has no reply yet.
        var missing = 0
        var sessionsSent = 0
        var lastReplyAt: UInt64 = 0
    }

    func tally() -> Tally {
        lock.withLock {
            var t = Tally(replies: replies, staleReplies: stale, duplicateReplies: duplicates, unknownReplies: unknown, lastReplyAt: lastReplyAt)
            for s in 0..<plan.sessions where latestSent[s] > 0 {
                t.sessionsSent += 1
                if highestReplied[s] < latestSent[s] { t.missing += 1 }
            }
            return t
        }
    }

    var warmedUp: Int { lock.withLock { warmupReplies } }

    func latencySamples() -> [Double] { lock.withLock { latencies } }
}

/// Monotonic nanoseconds: the one clock every stamp of a run uses.
@inline(__always) func uptimeNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
