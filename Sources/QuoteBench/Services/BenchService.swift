/// What a phase runs the load through: N ShipQuote workers, or N echo workers. Both are members
/// of one consumer group over the phase's input topic, in this process, on threads of their own.
protocol BenchService: AnyObject {
    /// Partitions owned across the members: the load starts once every partition has an owner.
    var assignedPartitions: Int { get }
    /// A member that stopped on an error, if any.
    var failure: String? { get }
    /// Counters once the phase is over; the echo has no drops.
    func counts() -> ServiceCounts
    func stop()
}

struct ServiceCounts: Equatable {
    var eventsIn = 0
    var outcomes: [String: Int] = [:]
    var drops: [String: Int] = [:]
    var deadLetters = 0
    /// Events the service is done with, one way or another (answered, dropped, dead-lettered).
    var finished = 0
}
