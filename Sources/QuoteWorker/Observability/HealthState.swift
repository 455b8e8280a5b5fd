import Synchronization

/// What `/healthz` and `/readyz` answer. The worker loop touches the heartbeat on every turn;
/// readiness needs the rules loaded and the group joined (an assignment arrived, possibly empty:
/// with more workers than partitions some legitimately own none) and the worker not stopping.
public final class HealthState: Sendable {
    public struct Verdict: Sendable, Equatable {
        public let ok: Bool
        /// A short JSON object saying why, for people reading the probe's output.
        public let detail: String
    }

    private struct State {
        var lastTurn: Duration
        var rulesLoaded = false
        var assignments = 0
        var assignedPartitions = 0
        var stopping = false
    }

    /// How long the loop may go without turning before the process counts as stuck. Longer than
    /// the worst legitimate pause: a rebalance drains in-flight work for up to the shutdown grace.
    public let staleAfter: Duration
    private let uptime: @Sendable () -> Duration
    private let state: Mutex<State>

    /// `uptime` is a monotonic reading (injected so tests decide when time passes).
    public init(staleAfter: Duration = .seconds(30), uptime: @escaping @Sendable () -> Duration = HealthState.monotonic) {
        self.staleAfter = staleAfter
        self.uptime = uptime
        // Starting counts as a turn: the first poll may wait out a group join.
        state = Mutex(State(lastTurn: uptime()))
    }

    public static let monotonic: @Sendable () -> Duration = {
        let origin = ContinuousClock.now
        return { ContinuousClock.now - origin }
    }()

    // MARK: - Reports from the worker

    /// Called on every turn of the worker loop.
    public func loopTurned() {
        let now = uptime()
        state.withLock { $0.lastTurn = now }
    }

    public func setRulesLoaded() { state.withLock { $0.rulesLoaded = true } }

    /// Called after every rebalance with the partitions now owned (0 is a legitimate answer).
    public func setAssigned(count: Int) {
        state.withLock {
            $0.assignments += 1
            $0.assignedPartitions = count
        }
    }

    /// The worker is shutting down: not ready any more, still alive while it drains.
    public func setStopping() { state.withLock { $0.stopping = true } }

    // MARK: - Probes

    public var liveness: Verdict {
        let now = uptime()
        let (last, staleAfter) = (state.withLock { $0.lastTurn }, self.staleAfter)
        let since = now - last
        let ok = since <= staleAfter
        return Verdict(ok: ok, detail: "{\"status\":\"\(ok ? "alive" : "stuck")\",\"seconds_since_loop_turned\":\(Self.seconds(since))}")
    }

    public var readiness: Verdict {
        let s = state.withLock { $0 }
        let joined = s.assignments > 0
        let ok = s.rulesLoaded && joined && !s.stopping
        let status = ok ? "ready" : s.stopping ? "stopping" : "not ready"
        return Verdict(ok: ok, detail: "{\"status\":\"\(status)\",\"rules_loaded\":\(s.rulesLoaded),\"group_joined\":\(joined)"
                                    + ",\"assigned_partitions\":\(s.assignedPartitions),\"stopping\":\(s.stopping)}")
    }

    private static func seconds(_ d: Duration) -> String {
        let ms = Int64(d.seconds * 1000)
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - String(abs(ms % 1000)).count))\(abs(ms % 1000))"
    }
}
