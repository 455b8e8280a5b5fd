import Foundation
import Synchronization

/// N workers of one system, each a process of its own (`shipquote run`, or `shipquote bench
/// echo-worker`) in one consumer group: what `bench --process` measures. Ownership and the echo's
/// counts come from their log lines, ShipQuote's counts from each worker's /metrics, and CPU from
/// /proc/<pid>/stat.
final class ProcessWorkers: BenchService, @unchecked Sendable {
    private let system: BenchPhase.System
    private let children: [ChildProcess]
    private let logs: [SharedWorkerLog]
    private let stopping = Mutex(false)
    /// How long a worker may take to stop after SIGTERM before it is killed.
    static let stopBound: Double = 15

    init(system: BenchPhase.System, count: Int, executable: String, arguments: [String], inputTopic: String) throws {
        self.system = system
        let logs = (0..<count).map { _ in SharedWorkerLog(inputTopic: inputTopic) }
        self.logs = logs
        var started: [ChildProcess] = []
        do {
            for i in 0..<count {
                started.append(try ChildProcess(name: "\(system.rawValue) worker \(i)", executable: executable, arguments: arguments,
                                                onLine: logs[i].lineHandler))
            }
        } catch {
            ChildProcess.stop(started, within: Self.stopBound)
            throw error
        }
        children = started
    }

    var assignedPartitions: Int { logs.reduce(0) { $0 + $1.current.owned.count } }

    var failure: String? {
        guard !stopping.withLock({ $0 }) else { return nil }
        for (child, log) in zip(children, logs) {
            if let status = child.exitStatus {
                let error = log.current.lastError
                return "\(child.name) exited with status \(status)" + (error.map { " (last error: \($0))" } ?? "")
            }
        }
        return nil
    }

    func counts() -> ServiceCounts {
        var total = ServiceCounts()
        for log in logs {
            let l = log.current
            var c = ServiceCounts()
            switch system {
            case .echo:
                c = ServiceCounts(eventsIn: l.echoAnswered + l.echoUnreadable, outcomes: ["echo": l.echoAnswered], drops: [:],
                                  deadLetters: l.echoUnreadable, finished: l.echoAnswered + l.echoUnreadable)
            case .shipquote:
                if let port = l.metricsAddress.flatMap(MetricsScrape.port), let text = MetricsScrape.get(port: port) {
                    c = MetricsScrape.counts(prometheus: text)
                }
            }
            total.add(c)
        }
        return total
    }

    /// The worker processes' utime + stime, summed; nil when one could not be read.
    func cpuSeconds() -> Double? {
        var sum = 0.0
        for child in children {
            guard let s = child.cpuSeconds() else { return nil }
            sum += s
        }
        return sum
    }

    var state: String {
        let members = zip(children, logs).map { child, log in
            let l = log.current
            return "\(child.name) " + (child.exitStatus.map { "exited with status \($0)" } ?? "running")
                + ", owning \(l.owned.sorted())" + (l.lastError.map { ", last error: \($0)" } ?? "")
        }
        return members.joined(separator: "; ") + "; together: \(counts())"
    }

    var cpuScope: String { "the worker processes only (utime+stime from /proc/<pid>/stat, summed; with a wrapper, the processes below it too)" }

    func stop() {
        stopping.withLock { $0 = true }
        let killed = ChildProcess.stop(children, within: Self.stopBound)
        if !killed.isEmpty {
            FileHandle.standardError.write(Data("bench: killed (SIGKILL) after \(Int(Self.stopBound)) s without exiting on SIGTERM: \(killed.joined(separator: ", "))\n".utf8))
        }
    }
}

extension ServiceCounts {
    mutating func add(_ other: ServiceCounts) {
        eventsIn += other.eventsIn
        outcomes.merge(other.outcomes, uniquingKeysWith: +)
        drops.merge(other.drops, uniquingKeysWith: +)
        deadLetters += other.deadLetters
        finished += other.finished
    }
}
