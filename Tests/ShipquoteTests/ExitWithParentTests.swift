import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `--exit-with-parent` (run, broker, bench echo-worker): a child whose parent died without
/// stopping it (a `bench --process` killed with SIGKILL) stops by itself, as on SIGTERM, and not
/// while its parent lives. Async, waiting for the orphan with `Task.sleep`: a test that blocks holds
/// one of the two threads of Swift's cooperative pool, which every async test of the suite needs.
@Suite(.serialized) struct ExitWithParentTests {
    @Test func aBrokerWhoseParentExitsStops() async throws {
        let orphan = try await Orphan.start(Binary.url.path, ["broker", "--partitions", "1", "--exit-with-parent"], readyWhen: "127.0.0.1:")
        defer { orphan.kill() }
        #expect(orphan.parentStatus == 0, "the parent: \(orphan.parentOutput)")
        #expect(orphan.aliveAfterReady, "it stopped while its parent still ran: \(orphan.stderr)")
        #expect(await orphan.awaitGone(timeout: 15), "still running 15 s after its parent exited")
        #expect(orphan.stderr.contains("embedded broker up"))
        #expect(!orphan.stderr.contains("did not stop within"), "it stopped by giving up: \(orphan.stderr)")
    }

    @Test func aWorkerWhoseParentExitsStopsAsOnSIGTERMAndLeavesItsGroup() async throws {
        let (broker, brokerOut, _) = try Binary.start(["broker", "--partitions", "2"])
        defer { Binary.stop(broker) }
        let bootstrap = try #require(Binary.firstLine(of: brokerOut, timeout: 20))
        let orphan = try await Orphan.start(Binary.url.path, [
            "run", "--bootstrap-servers", bootstrap, "--rules", Binary.exampleRules, "--exit-with-parent",
            "-X", "session.timeout.ms=6000", "-X", "heartbeat.interval.ms=500",
        ], readyWhen: "partitions assigned")
        defer { orphan.kill() }
        #expect(orphan.parentStatus == 0, "the parent: \(orphan.parentOutput); worker: \(orphan.stderr)")
        #expect(orphan.aliveAfterReady, "it stopped while its parent still ran: \(orphan.stderr)")
        #expect(await orphan.awaitGone(timeout: 30), "still running 30 s after its parent exited")
        let log = orphan.stderr
        #expect(log.contains("\"body\":\"the parent exited; stopping as on SIGTERM\""), "\(log)")
        #expect(log.contains("\"body\":\"stop requested\""), "\(log)")
        #expect(log.contains("\"signal\":15"), "\(log)")
        #expect(log.contains("\"body\":\"partitions revoked\""), "it should leave the group: \(log)")
        #expect(log.contains("\"body\":\"worker stopped\""), "\(log)")
        #expect(!log.contains("did not end in time"), "\(log)")
    }

    @Test func withoutTheFlagAWorkerOutlivesItsParent() async throws {
        let (broker, brokerOut, _) = try Binary.start(["broker", "--partitions", "2"])
        defer { Binary.stop(broker) }
        let bootstrap = try #require(Binary.firstLine(of: brokerOut, timeout: 20))
        let orphan = try await Orphan.start(Binary.url.path, [
            "run", "--bootstrap-servers", bootstrap, "--rules", Binary.exampleRules,
            "-X", "session.timeout.ms=6000", "-X", "heartbeat.interval.ms=500",
        ], readyWhen: "partitions assigned")
        defer { orphan.kill() }
        #expect(orphan.parentStatus == 0, "the parent: \(orphan.parentOutput); worker: \(orphan.stderr)")
        // Four times the flag's polling interval, and more: it would have noticed by then.
        let gone = await orphan.awaitGone(timeout: 2)
        #expect(!gone, "it stopped without the flag: \(orphan.stderr)")
        #expect(!orphan.stderr.contains("stop requested"))
    }
}

/// A `shipquote` command started by a parent (Python) that waits until the command is ready (`readyWhen`
/// appears on its stdout or stderr), checks a second later that it still runs, and exits,
/// leaving the command an orphan.
final class Orphan {
    let pid: Int32
    /// The process's start time (field 22 of /proc/<pid>/stat), so that a pid used again is not taken for it.
    private let startTime: String?
    let parentStatus: Int32
    let parentOutput: String
    let aliveAfterReady: Bool
    private let directory: URL

    private init(pid: Int32, startTime: String?, parentStatus: Int32, parentOutput: String, aliveAfterReady: Bool, directory: URL) {
        (self.pid, self.startTime, self.parentStatus, self.parentOutput, self.aliveAfterReady, self.directory) =
            (pid, startTime, parentStatus, parentOutput, aliveAfterReady, directory)
    }

    /// The fields of /proc/<pid>/stat after the command name (the first is field 3, the state).
    private static func stat(_ pid: Int32) -> [Substring]? {
        guard pid > 0, let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    static func start(_ executable: String, _ arguments: [String], readyWhen ready: String) async throws -> Orphan {
        let python = try #require(Tool.path("python3"), "python3 starts the parent")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("orphan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Python, not sh: its child inherits no descriptor but the three it is given. (Through sh, the
        // child kept the one Foundation's Process watches to learn that the shell ended, so the
        // test could not tell that the parent had exited while the child lived.) Bounded: 600
        // looks of 50 ms for the ready text, and the parent gives up if the command ends.
        let script = """
        import subprocess, sys, time
        out, err, ready, command = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=open(out, "wb"), stderr=open(err, "wb"), close_fds=True)
        stat = open(f"/proc/{child.pid}/stat").read()
        print(child.pid, stat[stat.rindex(")") + 2:].split()[19], flush=True)
        for _ in range(600):
            if any(ready in open(f, errors="replace").read() for f in (out, err)):
                break
            if child.poll() is not None:
                sys.exit(4)
            time.sleep(0.05)
        else:
            sys.exit(3)
        time.sleep(1)
        if child.poll() is None:
            print("alive", flush=True)
        """
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: python)
        parent.arguments = ["-c", script, directory.appendingPathComponent("out").path, directory.appendingPathComponent("err").path,
                            ready, executable] + arguments
        let out = Pipe()
        parent.standardOutput = out
        parent.standardError = FileHandle.nullDevice
        parent.standardInput = FileHandle.nullDevice
        do { try parent.run() } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        // Its own loop ends within 31 s; past 60 s it is killed.
        let deadline = Date().addingTimeInterval(60)
        while parent.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if parent.isRunning { Glibc.kill(parent.processIdentifier, SIGKILL) }
        parent.waitUntilExit()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = output.split(separator: "\n")
        let first = lines.first?.split(separator: " ") ?? []
        return Orphan(pid: first.first.flatMap { Int32($0) } ?? 0, startTime: first.count > 1 ? String(first[1]) : nil,
                      parentStatus: parent.terminationStatus, parentOutput: output,
                      aliveAfterReady: lines.dropFirst().contains("alive"), directory: directory)
    }

    var stderr: String { (try? String(contentsOf: directory.appendingPathComponent("err"), encoding: .utf8)) ?? "" }

    /// Whether the process has ended (gone, or a zombie its new parent has not reaped) within `timeout` seconds.
    func awaitGone(timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if !running { return true }
            try? await Task.sleep(for: .milliseconds(50))
        } while Date() < deadline
        return !running
    }

    /// Running: not gone, not a zombie, and still the process that was started (same start time).
    private var running: Bool {
        guard let fields = Self.stat(pid), fields.count > 19, fields[0] != "Z" else { return false }
        return startTime == String(fields[19])
    }

    /// SIGKILL if it still runs (a failed test leaves nothing behind), and its files removed.
    func kill() {
        if running { Glibc.kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }
}
