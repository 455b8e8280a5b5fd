import QuoteContract
import Synchronization

/// What the bench learns from a worker process's JSON log lines (stderr): the input partitions
/// it owns ("partitions assigned" / "partitions revoked"), where it serves /metrics, an echo
/// worker's counts, and the last error it logged.
struct WorkerLog: Equatable {
    let inputTopic: String
    private(set) var owned: Set<Int32> = []
    private(set) var metricsAddress: String?
    private(set) var echoAnswered = 0
    private(set) var echoUnreadable = 0
    private(set) var lastError: String?
    /// When the latest "partitions revoked" and "partitions assigned" lines were read (uptime nanoseconds; 0: never).
    private(set) var revokedAt: UInt64 = 0
    private(set) var assignedAt: UInt64 = 0

    init(inputTopic: String) { self.inputTopic = inputTopic }

    static let assigned = "partitions assigned"
    static let revoked = "partitions revoked"
    static let serving = "serving /metrics, /healthz and /readyz"
    static let echoCounts = "echo counts"

    /// Reads one line, read at `now` (uptime nanoseconds).
    mutating func read(_ line: String, at now: UInt64 = 0) {
        guard line.hasPrefix("{"), case .object(let o)? = try? JSONReader().read(line), case .string(let msg)? = o["body"] else { return }
        switch msg {
        case Self.assigned:
            owned.formUnion(partitions(o["partitions"]))
            assignedAt = now
        case Self.revoked:
            owned.subtract(partitions(o["partitions"]))
            revokedAt = now
        case Self.serving: if case .string(let listen)? = o["listen"] { metricsAddress = listen }
        case Self.echoCounts:
            if case .number(let n)? = o["answered"], let v = Int(n) { echoAnswered = v }
            if case .number(let n)? = o["unreadable"], let v = Int(n) { echoUnreadable = v }
        default:
            if case .string("ERROR")? = o["severity_text"] { lastError = msg }
        }
    }

    /// The input topic's partition numbers in `topic[0],topic[3]` (KafkaTopicPartition's description, comma-joined).
    private func partitions(_ value: JSONValue?) -> [Int32] {
        guard case .string(let text)? = value else { return [] }
        return text.split(separator: ",").compactMap { item in
            guard item.hasSuffix("]"), let open = item.lastIndex(of: "["), item[..<open] == inputTopic[...] else { return nil }
            return Int32(item[item.index(after: open)..<item.index(before: item.endIndex)])
        }
    }
}

/// A worker process's `WorkerLog`, updated by the thread reading its stderr and read by the bench.
final class SharedWorkerLog: Sendable {
    private let log: Mutex<WorkerLog>

    init(inputTopic: String) { log = Mutex(WorkerLog(inputTopic: inputTopic)) }

    var current: WorkerLog { log.withLock { $0 } }

    /// A `ChildProcess` line handler that reads the process's stderr into this log.
    var lineHandler: @Sendable (_ stderr: Bool, _ line: String) -> Void {
        { [self] isError, line in if isError { log.withLock { $0.read(line, at: uptimeNanoseconds()) } } }
    }
}
