import Foundation
import QuoteContract

/// The replies received and the newest sequence sent, per session, and the callers waiting.
/// Latest wins here too: a reply to a sequence older than the newest sent is never handed out,
/// and a wait for an older sequence ends `superseded` as soon as a newer one is sent.
final class ReplyBook: @unchecked Sendable {
    private struct Waiter {
        let id: UInt64
        let sequence: Int64
        let resume: (QuoteGateway.Answer) -> Void
    }

    private struct Session {
        var latestSent: Int64 = 0
        var reply: QuoteReply?
        var touched: ContinuousClock.Instant
        var waiters: [Waiter] = []
    }

    private let condition = NSCondition()
    private var sessions: [String: Session] = [:]
    private var ignoredReplies: [QuoteReply] = []
    private var nextWaiterID: UInt64 = 0

    /// How many ignored stale replies are kept for inspection (the demo shows them).
    static let ignoredKept = 100

    var ignored: [QuoteReply] { condition.withLock { ignoredReplies } }
    var trackedSessions: Int { condition.withLock { sessions.count } }

    /// The next sequence for a session: one above the highest sent through this gateway.
    func nextSequence(for session: String) -> Int64 {
        condition.withLock { (sessions[session]?.latestSent ?? 0) + 1 }
    }

    func sent(session: String, sequence: Int64) {
        var superseded: [Waiter] = []
        condition.withLock {
            var s = sessions[session] ?? Session(touched: .now)
            s.latestSent = max(s.latestSent, sequence)
            s.touched = .now
            superseded = s.waiters.filter { $0.sequence < s.latestSent }
            s.waiters.removeAll { $0.sequence < s.latestSent }
            sessions[session] = s
            condition.broadcast()
        }
        for w in superseded { w.resume(.superseded(byNewerSequence: sequence)) }
    }

    func received(_ reply: QuoteReply) {
        var answered: [Waiter] = []
        condition.withLock {
            guard var s = sessions[reply.sessionID] else { return }  // not a session this gateway sent
            if reply.sequence < s.latestSent {
                ignoredReplies.append(reply)
                if ignoredReplies.count > Self.ignoredKept { ignoredReplies.removeFirst() }
            } else if (s.reply?.sequence ?? 0) <= reply.sequence {
                s.reply = reply
                s.touched = .now
                answered = s.waiters.filter { $0.sequence == reply.sequence }
                s.waiters.removeAll { $0.sequence == reply.sequence }
            }
            sessions[reply.sessionID] = s
            condition.broadcast()
        }
        for w in answered { w.resume(.reply(reply)) }
    }

    /// What is already known for `sequence`, or nil when the caller has to wait.
    private func settled(_ session: String, _ sequence: Int64) -> QuoteGateway.Answer? {
        guard let s = sessions[session] else { return nil }
        if s.latestSent > sequence { return .superseded(byNewerSequence: s.latestSent) }
        if let reply = s.reply, reply.sequence == sequence { return .reply(reply) }
        return nil
    }

    /// Blocks the calling thread until the answer or the deadline.
    func waitForReply(session: String, sequence: Int64, until deadline: ContinuousClock.Instant) -> QuoteGateway.Answer {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let answer = settled(session, sequence) { return answer }
            if ContinuousClock.now >= deadline { return .timedOut }
            // Wake at least every 100 ms to look at the deadline again.
            _ = condition.wait(until: Date().addingTimeInterval(0.1))
        }
    }

    /// Registers `resume` to be called once with the answer; returns an id to expire it with.
    func register(session: String, sequence: Int64, resume: @escaping (QuoteGateway.Answer) -> Void) -> UInt64? {
        let (now, id): (QuoteGateway.Answer?, UInt64?) = condition.withLock {
            if let answer = settled(session, sequence) { return (answer, nil) }
            nextWaiterID += 1
            sessions[session, default: Session(touched: .now)].waiters.append(Waiter(id: nextWaiterID, sequence: sequence, resume: resume))
            return (nil, nextWaiterID)
        }
        if let now { resume(now) }
        return id
    }

    /// Ends a wait that is still registered (its deadline passed, or its task was cancelled).
    func expire(session: String, waiter id: UInt64, with answer: QuoteGateway.Answer) {
        let waiter: Waiter? = condition.withLock {
            guard let i = sessions[session]?.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return sessions[session]!.waiters.remove(at: i)
        }
        waiter?.resume(answer)
    }

    /// Forgets sessions untouched for `idle` with nobody waiting, so a long-running gateway
    /// holds only the checkouts that are alive.
    func prune(idle: Duration) {
        let cutoff = ContinuousClock.now - idle
        condition.withLock { sessions = sessions.filter { !$0.value.waiters.isEmpty || $0.value.touched >= cutoff } }
    }
}
