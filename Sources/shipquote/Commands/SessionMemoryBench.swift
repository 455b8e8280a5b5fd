import Foundation
import Kafka
import QuoteWorker

/// `shipquote bench sessions [--count N]`: memory per tracked session in the sequence gate,
/// measured as the growth of the process's resident set while N sessions are taken.
enum SessionMemoryBench {
    static func run(_ args: [String]) throws {
        let flags = try Arguments(args, valued: ["--count", "--partitions"], flags: ["--help"])
        if flags.has("--help") { return Output.line("usage: shipquote bench sessions [--count 1000000] [--partitions 8]") }
        let count = try flags.int("--count") ?? 1_000_000
        let partitions = try flags.int("--partitions") ?? 8
        guard count > 0, partitions > 0 else { Output.fail("bench sessions: --count and --partitions must be positive") }
        // Session ids as gateways make them: 36-character UUIDs, each made as an event would bring
        // it, so the id's own storage counts too.
        let before = residentBytes()
        var gate = SequenceGate()
        let started = DispatchTime.now().uptimeNanoseconds
        for i in 0..<count {
            gate.take(session: UUID().uuidString.lowercased(), sequence: Int64(i % 50 + 1), offset: Int64(i), nowMs: 1_791_633_600_000 + Int64(i),
                      in: KafkaTopicPartition("shipping.address-changed", Int32(i % partitions)))
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let after = residentBytes()
        Output.line("sessions  \(gate.trackedSessions) over \(partitions) partitions, taken in \(String(format: "%.2f", seconds)) s")
        Output.line("memory    \(after - before) bytes more resident = \((after - before) / count) bytes per session (id, entry and table)")
    }

    /// Resident set size from /proc/self/statm (pages × page size).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
