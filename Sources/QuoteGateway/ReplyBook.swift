import Foundation
import Kafka
import QuoteContract

/// The replies received and the newest sequence sent, per session, and the callers waiting.
/// Latest wins here too: a reply to a sequence older than the newest sent is never handed out,
/// and a wait for an older sequence ends `superseded` as soon as a newer one is sent.
///
/// Sendable because its one mutable store, `sessions`, is only touched under `lock`.
final class ReplyBook: @unchecked Sendable {
    typealias Outcome = Result<QuoteGateway.Answer, GatewayError>

    private struct Waiter {
        let id: UInt64
        let sequence: Int64
        let resume: @Sendable (Outcome) -> Void
        /// Ends the wait at its deadline; cancelled when the wait ends otherwise.
        var timer: Task<Void, Never>?
    }

    private struct Session {
        var latestSent: Int64 = 0
        var reply: QuoteReply?
        var touched: ContinuousClock.Instant
        var waiters: [Waiter] = []
    }

    private let lock = NSLock()
    private var sessions: [String: Session] = [:]
    private var ignoredReplies: [QuoteReply] = []
    private var nextWaiterID: UInt64 = 0
    /// Set once a client failed for good: every wait, present and future, ends with it.
    private var failure: GatewayError?

    /// How many ignored stale replies are kept for inspection (the demo shows them).
    static let ignoredKept = 100

    var ignored: [QuoteReply] { lock.withLock { ignoredReplies } }
    var trackedSessions: Int { lock.withLock { sessions.count } }
    var failed: GatewayError? { lock.withLock { failure } }

    /// The next sequence for a session: one above the highest sent through this gateway.
    func nextSequence(for session: String) -> Int64 {
        lock.withLock { (sessions[session]?.latestSent ?? 0) + 1 }
    }

    func sent(session: String, sequence: Int64) {
        let superseded: [Waiter] = lock.withLock {
            var s = sessions[session] ?? Session(touched: .now)
            s.latestSent = max(s.latestSent, sequence)
            s.touched = .now
            let older = s.waiters.filter { $0.sequence < s.latestSent }
            s.waiters.removeAll { $0.sequence < s.latestSent }
            sessions[session] = s
            return older
        }
        for w in superseded { end(w, .success(.superseded(byNewerSequence: sequence))) }
    }

    func received(_ reply: QuoteReply) {
        let answered: [Waiter] = lock.withLock {
            guard var s = sessions[reply.sessionID] else { return [] }  // not a session this gateway sent
            var answered: [Waiter] = []
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
            return answered
        }
        for w in answered { end(w, .success(.reply(reply))) }
    }

    /// What is already known for `sequence`, or nil when the caller has to wait.
    private func settled(_ session: String, _ sequence: Int64) -> Outcome? {
        if let failure { return .failure(failure) }
        guard let s = sessions[session] else { return nil }
        if s.latestSent > sequence { return .success(.superseded(byNewerSequence: s.latestSent)) }
        if let reply = s.reply, reply.sequence == sequence { return .success(.reply(reply)) }
        return nil
    }

    /// Registers `resume` to be called once with the outcome; returns an id to attach a timer to
    /// and to end the wait with, or nil when the outcome was known at once (and `resume` called).
    func register(session: String, sequence: Int64, resume: @escaping @Sendable (Outcome) -> Void) -> UInt64? {
        let (now, id): (Outcome?, UInt64?) = lock.withLock {
            if let outcome = settled(session, sequence) { return (outcome, nil) }
            nextWaiterID += 1
            sessions[session, default: Session(touched: .now)].waiters.append(Waiter(id: nextWaiterID, sequence: sequence, resume: resume))
            return (nil, nextWaiterID)
        }
        if let now { resume(now) }
        return id
    }

    /// Gives a registered wait its deadline timer; a wait that already ended cancels it at once.
    func attach(_ timer: Task<Void, Never>, session: String, waiter id: UInt64) {
        let attached: Bool = lock.withLock {
            guard let i = sessions[session]?.waiters.firstIndex(where: { $0.id == id }) else { return false }
            sessions[session]!.waiters[i].timer = timer
            return true
        }
        if !attached { timer.cancel() }
    }

    /// Ends a wait that is still registered (its deadline passed, or its task was cancelled).
    func end(session: String, waiter id: UInt64, with outcome: Outcome) {
        let waiter: Waiter? = lock.withLock {
            guard let i = sessions[session]?.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return sessions[session]!.waiters.remove(at: i)
        }
        if let waiter { end(waiter, outcome) }
    }

    /// A client failed for good: every wait ends with `error`, and so does every later one.
    func fail(with error: GatewayError) {
        let waiting: [Waiter] = lock.withLock {
            if failure == nil { failure = error }
            let all = sessions.values.flatMap(\.waiters)
            for key in sessions.keys { sessions[key]!.waiters = [] }
            return all
        }
        for w in waiting { end(w, .failure(error)) }
    }

    private func end(_ waiter: Waiter, _ outcome: Outcome) {
        waiter.timer?.cancel()
        waiter.resume(outcome)
    }

    /// Forgets sessions untouched for `idle` with nobody waiting, so a long-running gateway
    /// holds only the checkouts that are alive.
    func prune(idle: Duration) {
        let cutoff = ContinuousClock.now - idle
        lock.withLock { sessions = sessions.filter { !$0.value.waiters.isEmpty || $0.value.touched >= cutoff } }
    }
}
