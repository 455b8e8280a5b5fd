import QuoteWorker
import Synchronization
import Testing

/// Liveness and readiness decisions, with time told by the test.
@Suite struct HealthStateTests {
    final class Uptime: Sendable {
        let now = Mutex(Duration.zero)
        func advance(_ d: Duration) { now.withLock { $0 += d } }
    }

    @Test func staleAfterTheLoopStopsTurning() {
        let uptime = Uptime()
        let health = HealthState(staleAfter: .seconds(30), uptime: { uptime.now.withLock { $0 } })
        #expect(health.liveness.ok)
        uptime.advance(.seconds(29))
        health.loopTurned()
        uptime.advance(.seconds(30))
        #expect(health.liveness.ok)
        uptime.advance(.milliseconds(1))
        #expect(!health.liveness.ok)
        #expect(health.liveness.detail.contains("\"status\":\"stuck\""))
        #expect(health.liveness.detail.contains("\"seconds_since_loop_turned\":30.001"))
        health.loopTurned()
        #expect(health.liveness.ok)
    }

    @Test func readyNeedsRulesAndAnAssignmentEvenAnEmptyOne() {
        let health = HealthState()
        #expect(!health.readiness.ok)
        health.setAssigned(count: 0)  // more workers than partitions: joined, owns none
        #expect(!health.readiness.ok, "rules not loaded yet")
        health.setRulesLoaded()
        #expect(health.readiness.ok)
        #expect(health.readiness.detail == #"{"status":"ready","rules_loaded":true,"group_joined":true,"assigned_partitions":0,"stopping":false}"#)
        health.setStopping()
        #expect(!health.readiness.ok)
        #expect(health.liveness.ok, "draining is still alive")
    }
}
