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

        // Default-priority blockers, more than the pool has threads for that priority (as many as
        // cores), each blocking its thread until the call has ended: once some have started and some
        // cannot, every thread of the default priority is taken (by them or by the suite's other
        // tests), and the call is made then, from a thread of its own, with a 3 s deadline.
        let launched = min(64, 4 * ProcessInfo.processInfo.activeProcessorCount)
        let url = stack.url(session: "busy-host")
        let shared = Shared()
        Thread {
            defer { shared.ended.store(true, ordering: .releasing) }
            // Beside the whole suite the blockers may wait their turn a long while: the call waits for them.
            let deadline = Date().addingTimeInterval(240)
            while shared.started.load(ordering: .acquiring) == 0 && Date() < deadline { usleep(1_000) }
            usleep(300_000)   // the others that can start, start
            let running = shared.started.load(ordering: .acquiring)
            guard running > 0, running < launched else {
                return shared.status.withLock { $0 = "\(running) of \(launched) blockers ran: the default priority's threads were not all taken" }
            }
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
        let blocking = (0..<launched).map { _ in
            Task(priority: .medium) {
                shared.started.add(1, ordering: .releasing)
                // Blocks its thread, as a synchronous test does, until the call has ended (at most 60 s).
                let until = Date().addingTimeInterval(60)
                while !shared.ended.load(ordering: .acquiring) && Date() < until { usleep(5_000) }
            }
        }
        for blocker in blocking { await blocker.value }
        let deadline = Date().addingTimeInterval(60)
        while !shared.ended.load(ordering: .acquiring) && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(shared.status.withLock { $0 } == "200", "the call made while the default priority's threads were all taken")
    }

    /// What the blockers, the calling thread and the test share.
    final class Shared: Sendable {
        let started = Atomic<Int>(0)
        let ended = Atomic<Bool>(false)
        let status = Mutex<String?>(nil)
    }
}
