import Foundation
import Synchronization
import Testing

/// The HTTP gateway inside a host whose own tasks block Swift's cooperative pool at the default
/// priority (as a full run of this suite does: its synchronous tests hold both threads of two
/// cores): a call is still answered within its deadline, because the gateway's calls run at a
/// priority of their own.
@Suite(.serialized) struct BusyHostTests {
    @Test func aCallIsAnsweredWhileTheHostsTasksBlockEveryThreadOfTheDefaultPriority() async throws {
        guard let curl = Curl.path else { Issue.record("curl is not installed (apt-get install curl)"); return }
        let stack = try await GatewayStack(worker: true)
        defer { Task { await stack.stop() } }
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("busy-host-\(UUID().uuidString).json")
        try Data(Bodies.quote()).write(to: body)
        defer { try? FileManager.default.removeItem(at: body) }

        // One blocker per core takes every thread the default priority has; the call is made from a
        // thread of its own once they all run, with a 3 s deadline, and they block for 8 s. (Beside
        // the whole suite the blockers may wait their turn a long while: the call waits for them.)
        let blockers = ProcessInfo.processInfo.activeProcessorCount
        let shared = Shared()
        let url = stack.url(session: "busy-host")
        Thread {
            let deadline = Date().addingTimeInterval(240)
            while shared.started.load(ordering: .acquiring) < blockers && Date() < deadline { usleep(1_000) }
            guard shared.started.load(ordering: .acquiring) == blockers else { return shared.status.withLock { $0 = "blockers never ran" } }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: curl)
            process.arguments = ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "30", "-H", "Expect:",
                                 "-H", "Request-Timeout: 3", "-H", "Content-Type: application/json", "--data-binary", "@" + body.path, url]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { return shared.status.withLock { $0 = "curl did not start: \(error)" } }
            let code = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            shared.status.withLock { $0 = code }
        }.start()
        let blocking = (0..<blockers).map { _ in
            Task(priority: .medium) {
                shared.started.add(1, ordering: .releasing)
                usleep(8_000_000)   // blocks its thread, as a synchronous test does
            }
        }
        for blocker in blocking { await blocker.value }
        let deadline = Date().addingTimeInterval(60)
        while shared.status.withLock({ $0 }) == nil && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(shared.status.withLock { $0 } == "200", "the call made while the default priority's threads were blocked")
    }

    /// What the blockers, the calling thread and the test share.
    final class Shared: Sendable {
        let started = Atomic<Int>(0)
        let status = Mutex<String?>(nil)
    }
}
