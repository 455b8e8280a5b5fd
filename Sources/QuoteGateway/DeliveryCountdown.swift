import Kafka
import Synchronization

/// Waits for the delivery reports of several records at once and reports once: nil when every
/// record was delivered, or the first failure.
final class DeliveryCountdown: Sendable {
    private let state: Mutex<(remaining: Int, failure: KafkaError?)>
    private let finish: @Sendable (KafkaError?) -> Void

    init(records: Int, finish: @escaping @Sendable (KafkaError?) -> Void) {
        state = Mutex((records, nil))
        self.finish = finish
        if records == 0 { finish(nil) }
    }

    func report(_ report: KafkaDeliveryReport) {
        if case .failed(let error) = report { count(1, failure: error) } else { count(1, failure: nil) }
    }

    /// `records` were never queued (the first of them failed with `error`).
    func abandon(_ records: Int, error: KafkaError) { count(records, failure: error) }

    private func count(_ records: Int, failure: KafkaError?) {
        let outcome: KafkaError?? = state.withLock { state in
            state.remaining -= records
            if state.failure == nil { state.failure = failure }
            return state.remaining == 0 ? .some(state.failure) : .none
        }
        if case .some(let failure) = outcome { finish(failure) }
    }
}
