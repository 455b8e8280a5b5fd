import Foundation
import Kafka
import QuoteContract
import QuoteWorker

/// `shipquote bench sessions`: memory per tracked session in the sequence gate, measured as the
/// growth of the process's resident set while `count` sessions are taken.
public enum SessionMemoryBench {
    /// The report's lines.
    public static func run(count: Int, partitions: Int) -> [String] {
        // Session ids as gateways make them: 36-character UUIDs, each keyed as an event's scan keys
        // it, so the id's own storage counts too.
        let before = residentBytes()
        var gate = SequenceGate()
        let started = uptimeNanoseconds()
        for i in 0..<count {
            gate.take(session: SessionKey(UUID().uuidString.lowercased()), sequence: Int64(i % 50 + 1), offset: Int64(i), nowMs: 1_791_633_600_000 + Int64(i),
                      in: KafkaTopicPartition("shipping.address-changed", Int32(i % partitions)))
        }
        let seconds = Double(uptimeNanoseconds() - started) / 1e9
        let after = residentBytes()
        return ["sessions  \(gate.trackedSessions) over \(partitions) partitions, taken in \(String(format: "%.2f", seconds)) s",
                "memory    \(after - before) bytes more resident = \((after - before) / count) bytes per session (id, entry and table)"]
    }

    /// Resident set size from /proc/self/statm (pages × page size).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
