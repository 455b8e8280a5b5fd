import Foundation
import Synchronization

/// A process the bench starts (a `shipquote run` worker, an echo worker, the broker): its stdout
/// and stderr read line by line as they come, so no pipe ever fills; its CPU time from /proc; and
/// a bounded stop (SIGTERM, then SIGKILL past the bound).
final class ChildProcess: @unchecked Sendable {
    /// Every child still running, so that a bench stopped by a signal stops them too.
    private static let running = Mutex<[Int32: ChildProcess]>([:])

    let name: String
    private let process: Process
    private let drained = DispatchGroup()

    /// `onLine(stderr, line)` runs on the reading threads, once per complete line.
    init(name: String, executable: String, arguments: [String],
         onLine: @escaping @Sendable (_ stderr: Bool, _ line: String) -> Void) throws {
        self.name = name
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        Self.running.withLock { $0[process.processIdentifier] = self }
        for (pipe, isError) in [(out, false), (err, true)] {
            drained.enter()
            let handle = pipe.fileHandleForReading
            let thread = Thread { [drained] in
                var buffer = Data()
                // Ends at end of file: when the process has exited (and its children closed the pipe).
                while case let chunk = handle.availableData, !chunk.isEmpty {
                    buffer.append(chunk)
                    while let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        onLine(isError, String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self))
                        buffer.removeSubrange(buffer.startIndex...nl)
                    }
                }
                drained.leave()
            }
            thread.name = "bench-child-output"
            thread.start()
        }
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var exitStatus: Int32? { process.isRunning ? nil : process.terminationStatus }

    /// CPU seconds so far of the process and of every process below it (a wrapper such as
    /// `perf record` runs the worker as its child: the worker's CPU, and the wrapper's own); nil once
    /// the process is gone. Each counts the children it has reaped too, so a process of the tree that
    /// ends between two readings moves its time to its parent instead of taking it out of the sum.
    func cpuSeconds() -> Double? {
        guard let own = ProcessCPU.seconds(pid: pid) else { return nil }
        return ProcessTree.descendants(of: pid).compactMap(ProcessCPU.seconds(pid:)).reduce(own, +)
    }

    /// SIGKILL now, as a crash would.
    func kill9() { if process.isRunning { kill(pid, SIGKILL) } }

    /// SIGTERM to each, and to the processes below each (a wrapper's worker), then up to `within`
    /// seconds for all to exit; those still running are killed (SIGKILL). Returns the names of
    /// those that had to be killed.
    ///
    /// Why the wrapper's worker too: the bench holds its stop signals blocked (its own thread takes
    /// them) and a child inherits that mask. The bench's own commands wait for those signals
    /// themselves, but a wrapper that runs the worker as its child (`perf record`, `strace`) never
    /// receives its SIGTERM: it was killed past the bound and `perf record` lost its data. The
    /// worker stops on its SIGTERM, and such a wrapper ends when its worker does.
    @discardableResult
    static func stop(_ children: [ChildProcess], within seconds: Double) -> [String] {
        // The processes below each are found before any is signalled: a wrapper that ends on its
        // SIGTERM leaves its worker to another parent, where it would no longer be found.
        let below = children.filter(\.process.isRunning).map { ($0, ProcessTree.descendants(of: $0.pid)) }
        for (c, started) in below {
            kill(c.pid, SIGTERM)
            for pid in started { kill(pid, SIGTERM) }
        }
        let deadline = Date().addingTimeInterval(seconds)
        while children.contains(where: \.process.isRunning) && Date() < deadline { usleep(20_000) }
        var killed: [String] = []
        for c in children where c.process.isRunning {
            kill(c.pid, SIGKILL)
            killed.append(c.name)
        }
        for c in children {
            c.process.waitUntilExit()
            _ = c.drained.wait(timeout: .now() + 5)
            running.withLock { _ = $0.removeValue(forKey: c.pid) }
        }
        return killed
    }

    /// Stops every child still running (the bench itself was asked to stop).
    static func stopEveryChild(within seconds: Double) {
        stop(running.withLock { Array($0.values) }, within: seconds)
    }
}

/// For the executable: the bench's child processes, stopped when the bench is asked to stop.
public enum WorkerProcesses {
    /// SIGTERM to every child still running, SIGKILL to those still running `seconds` later.
    public static func stopAll(within seconds: Double) { ChildProcess.stopEveryChild(within: seconds) }
}

/// CPU time of a process: from `/proc/<pid>/stat` in clock ticks (with the children it has waited
/// for), or this process's own from `getrusage`.
enum ProcessCPU {
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// utime + stime (fields 14 and 15) from the text of `/proc/<pid>/stat`.
    static func ticks(stat text: String) -> Int? {
        guard let utime = ProcessStat.field(14, of: text), let stime = ProcessStat.field(15, of: text) else { return nil }
        return utime + stime
    }

    /// utime + stime + cutime + cstime (fields 14 to 17): the process's own CPU and that of the
    /// children it has waited for.
    static func ticksWithReapedChildren(stat text: String) -> Int? {
        guard let own = ticks(stat: text), let cutime = ProcessStat.field(16, of: text),
              let cstime = ProcessStat.field(17, of: text) else { return nil }
        return own + cutime + cstime
    }

    /// The process's CPU seconds, with the children it has waited for; nil once it is gone.
    static func seconds(pid: Int32) -> Double? {
        guard let text = ProcessStat.text(pid: pid), let ticks = ticksWithReapedChildren(stat: text) else { return nil }
        return Double(ticks) / ticksPerSecond
    }

    /// This process's user + system time: every thread, whatever it does.
    static func ownSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
