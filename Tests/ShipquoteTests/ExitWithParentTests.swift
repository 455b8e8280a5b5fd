import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `--exit-with-parent` (run, broker, bench echo-worker): a child whose parent died without
/// stopping it (a `bench --process` killed with SIGKILL) stops by itself, as on SIGTERM, and not
/// while its parent lives.
@Suite(.serialized) struct ExitWithParentTests {
    @Test func aBrokerWhoseParentExitsStops() throws {
        let orphan = try Orphan(Binary.url.path, ["broker", "--partitions", "1", "--exit-with-parent"], readyWhen: "127.0.0.1:")
        defer { orphan.kill() }
        #expect(orphan.parentStatus == 0, "the parent: \(orphan.parentOutput)")
        #expect(orphan.aliveAfterReady, "it stopped while its parent still ran: \(orphan.stderr)")
        #expect(orphan.awaitGone(timeout: 15), "still running 15 s after its parent exited")
        #expect(orphan.stderr.contains("embedded broker up"))
    }

    @Test func aWorkerWhoseParentExitsStopsAsOnSIGTERMAndLeavesItsGroup() throws {
        let (broker, brokerOut, _) = try Binary.start(["broker", "--partitions", "2"])
        defer { Binary.stop(broker) }
        let bootstrap = try #require(Binary.firstLine(of: brokerOut, timeout: 20))
        let orphan = try Orphan(Binary.url.path, [
            "run", "--bootstrap-servers", bootstrap, "--rules", Binary.exampleRules, "--exit-with-parent",
            "-X", "session.timeout.ms=6000", "-X", "heartbeat.interval.ms=500",
        ], readyWhen: "partitions assigned")
        defer { orphan.kill() }
        #expect(orphan.parentStatus == 0, "the parent: \(orphan.parentOutput); worker: \(orphan.stderr)")
        #expect(orphan.aliveAfterReady, "it stopped while its parent still ran: \(orphan.stderr)")
        #expect(orphan.awaitGone(timeout: 30), "still running 30 s after its parent exited")
        let log = orphan.stderr
        #expect(log.contains("\"body\":\"stop requested\""), "\(log)")
        #expect(log.contains("\"signal\":15"), "\(log)")
        #expect(log.contains("\"body\":\"partitions revoked\""), "it should leave the group: \(log)")
        #expect(log.contains("\"body\":\"worker stopped\""), "\(log)")
        #expect(!log.contains("did not end in time"), "\(log)")
    }

    @Test func withoutTheFlagAWorkerOutlivesItsParent() throws {
        let (broker, brokerOut, _) = try Binary.start(["broker", "--partitions", "2"])
        defer { Binary.stop(broker) }
        let bootstrap = try #require(Binary.firstLine(of: brokerOut, timeout: 20))
        let orphan = try Orphan(Binary.url.path, [
            "run", "--bootstrap-servers", bootstrap, "--rules", Binary.exampleRules,
            "-X", "session.timeout.ms=6000", "-X", "heartbeat.interval.ms=500",
        ], readyWhen: "partitions assigned")
        defer { orphan.kill() }
        #expect(orphan.parentStatus == 0, "the parent: \(orphan.parentOutput); worker: \(orphan.stderr)")
        // Four times the flag's polling interval, and more: it would have noticed by then.
        #expect(!orphan.awaitGone(timeout: 2), "it stopped without the flag: \(orphan.stderr)")
        #expect(!orphan.stderr.contains("stop requested"))
    }
}

/// A `shipquote` command started by a parent (Python) that waits until the command is ready (`readyWhen`
/// appears on its stdout or stderr), checks a second later that it still runs, and exits,
/// leaving the command an orphan.
final class Orphan {
    let pid: Int32
    let parentStatus: Int32
    let parentOutput: String
    let aliveAfterReady: Bool
    private let directory: URL

    init(_ executable: String, _ arguments: [String], readyWhen ready: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("orphan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Python, not sh: its child inherits no descriptor but the three it is given. (Through sh, the
        // child kept the one Foundation's Process watches to learn that the shell ended, so the
        // test could not tell that the parent had exited while the child lived.) Bounded: 600
        // looks of 50 ms for the ready text, and the parent gives up if the command ends.
        let script = """
        import subprocess, sys, time
        out, err, ready, command = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=open(out, "wb"), stderr=open(err, "wb"), close_fds=True)
        print(child.pid, flush=True)
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
        let python = try #require(Tool.path("python3"), "python3 starts the parent")
        let (status, output) = try Tool.run(python, ["-c", script, directory.appendingPathComponent("out").path,
                                                     directory.appendingPathComponent("err").path, ready, executable] + arguments,
                                            timeout: 60)
        let lines = output.split(separator: "\n")
        pid = lines.first.flatMap { Int32($0) } ?? 0
        parentStatus = status
        parentOutput = output
        aliveAfterReady = lines.dropFirst().contains("alive")
    }

    var stderr: String { (try? String(contentsOf: directory.appendingPathComponent("err"), encoding: .utf8)) ?? "" }

    /// Whether the process has ended (gone, or a zombie its new parent has not reaped) within `timeout` seconds.
    func awaitGone(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if !running { return true }
            usleep(50_000)
        } while Date() < deadline
        return !running
    }

    private var running: Bool {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        // Field 3, the state, follows the command name's closing parenthesis.
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    /// SIGKILL if it still runs (a failed test leaves nothing behind), and its files removed.
    func kill() {
        if running { Glibc.kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }
}
