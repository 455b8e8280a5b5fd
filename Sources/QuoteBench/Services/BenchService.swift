/// What a phase runs the load through: N ShipQuote workers, or N echo workers. Both are members
/// of one consumer group over the phase's input topic, in this process, on threads of their own.
protocol BenchService: AnyObject {
    /// Partitions owned across the members: the load starts once every partition has an owner.
    var assignedPartitions: Int { get }
    /// A member that stopped on an error, if any.
    var failure: String? { get }
    /// Counters once the phase is over; the echo has no drops.
    func counts() -> ServiceCounts
    /// CPU seconds used so far by what `cpuScope` names; nil when unknown.
    func cpuSeconds() -> Double?
    /// Whose CPU `cpuSeconds()` counts, for the report.
    var cpuScope: String { get }
    /// What the members report now, in a line: for an error that has to say why.
    var state: String { get }
    func stop()
}

extension BenchService {
    var state: String { "owning \(assignedPartitions) partition(s); \(counts())" }

    /// In-process workers share the bench's process: its CPU is all there is to read.
    func cpuSeconds() -> Double? { ProcessCPU.ownSeconds() }
    var cpuScope: String {
        "the whole bench process (getrusage): the workers' threads plus the load generator, the reply reader and the embedded broker's thread"
    }
}

struct ServiceCounts: Equatable {
    var eventsIn = 0
    var outcomes: [String: Int] = [:]
    var drops: [String: Int] = [:]
    var deadLetters = 0
    /// Events the service is done with, one way or another (answered, dropped, dead-lettered).
    var finished = 0
}

extension ServiceCounts: CustomStringConvertible {
    var description: String {
        func listed(_ counts: [String: Int]) -> String { counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
        return "\(eventsIn) event(s) in, outcomes [\(listed(outcomes))], drops [\(listed(drops))], \(deadLetters) dead letter(s)"
    }
}
