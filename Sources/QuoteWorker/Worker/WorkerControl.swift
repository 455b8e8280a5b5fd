import Kafka
import Synchronization

/// The flags other threads use to steer a running worker, and what they may read of it.
final class WorkerControl: Sendable {
    private let state = Mutex<(stop: Bool, fatal: (any Error)?, assignment: [KafkaTopicPartition])>((false, nil, []))

    var stopRequested: Bool { state.withLock { $0.stop } }
    var fatalError: (any Error)? { state.withLock { $0.fatal } }
    var assignment: [KafkaTopicPartition] { state.withLock { $0.assignment } }

    func requestStop() { state.withLock { $0.stop = true } }
    /// The first failure wins: it is the cause, later ones are its consequences.
    func fail(_ error: any Error) { state.withLock { if $0.fatal == nil { $0.fatal = error } } }
    func setAssignment(_ partitions: [KafkaTopicPartition]) { state.withLock { $0.assignment = partitions } }
}
