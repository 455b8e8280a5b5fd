import Synchronization

/// What was sent and what came back, shared by the generator (which stamps each event as it
/// produces it) and the reply reader (which stamps each reply as it receives it). Matching is by
/// the reply's `session-id` and `sequence` headers.
///
/// A reply is a stale one wrongly published when its sequence is below one already published for
/// its session: the contract's "answers to stale addresses are never published". Replies of a session
/// share its partition, so the order the reader sees is the order they were published.
final class ReplyLedger: Sendable {
    private let plan: LoadPlan
    /// Event index of each session's sequence n at `[session][n - 1]`.
    private let eventIndex: [[Int32]]
    private let book: Mutex<Book>

    /// Everything the two threads change, behind the one lock.
    private struct Book {
        var sentAt: [UInt64]
        var latestSent: [Int32]
        var highestReplied: [Int32]
        var latencies: [Double] = []
        /// The reply counts; `missing` and `sessionsSent` are worked out by `tally()`.
        var counts = Tally()
        /// The warm-up sessions (one a partition, numbered as it) that have been answered.
        var warmedUp: Set<Int> = []
    }

    init(plan: LoadPlan) {
        self.plan = plan
        var index = [[Int32]](repeating: [], count: plan.sessions)
        for (i, e) in plan.events.enumerated() { index[Int(e.session)].append(Int32(i)) }
        eventIndex = index
        var book = Book(sentAt: [UInt64](repeating: 0, count: plan.events.count),
                        latestSent: [Int32](repeating: 0, count: plan.sessions),
                        highestReplied: [Int32](repeating: 0, count: plan.sessions))
        book.latencies.reserveCapacity(plan.events.count)
        self.book = Mutex(book)
    }

    /// The generator produced event `i` at `now` (uptime nanoseconds).
    func sent(_ i: Int, at now: UInt64) {
        let e = plan.events[i]
        book.withLock { book in
            book.sentAt[i] = now
            book.latestSent[Int(e.session)] = max(book.latestSent[Int(e.session)], e.sequence)
        }
    }

    /// The reader received a reply with these headers at `now`. Returns when the event it answers
    /// was sent (uptime nanoseconds), or nil for a warm-up reply, one the ledger cannot place, or an event not yet stamped.
    @discardableResult
    func received(sessionHeader: [UInt8]?, sequenceHeader: [UInt8]?, at now: UInt64) -> UInt64? {
        if let sessionHeader, let warmup = BenchEvents.sessionIndex(sessionHeader, prefix: BenchEvents.warmupPrefix) {
            book.withLock { _ = $0.warmedUp.insert(warmup) }
            return nil
        }
        guard let sessionHeader, let sequenceHeader, let session = BenchEvents.sessionIndex(sessionHeader),
              let sequence = BenchEvents.decimal(sequenceHeader), session < plan.sessions,
              sequence >= 1, sequence <= eventIndex[session].count else {
            book.withLock { $0.counts.unknownReplies += 1 }
            return nil
        }
        let event = Int(eventIndex[session][sequence - 1])
        return book.withLock { book in
            book.counts.replies += 1
            book.counts.lastReplyAt = now
            let sentTime = book.sentAt[event]
            if sentTime > 0 { book.latencies.append(Double(now &- sentTime) / 1e9) }
            let seq = Int32(sequence)
            if seq < book.highestReplied[session] {
                book.counts.staleReplies += 1
            } else if seq == book.highestReplied[session] {
                book.counts.duplicateReplies += 1
            } else {
                book.highestReplied[session] = seq
            }
            return sentTime > 0 ? sentTime : nil
        }
    }

    struct Tally: Equatable {
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
        book.withLock { book in
            var t = book.counts
            for s in 0..<plan.sessions where book.latestSent[s] > 0 {
                t.sessionsSent += 1
                if book.highestReplied[s] < book.latestSent[s] { t.missing += 1 }
            }
            return t
        }
    }

    /// The partitions whose warm-up event has been answered (a partition answered twice counts once).
    var warmedUp: Set<Int> { book.withLock { $0.warmedUp } }

    func latencySamples() -> [Double] { book.withLock { $0.latencies } }
}
