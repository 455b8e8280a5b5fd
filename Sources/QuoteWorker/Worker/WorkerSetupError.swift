import QuoteContract

/// A setting or topic layout the worker cannot work with; the text says what to change.
public struct WorkerSetupError: Error, CustomStringConvertible {
    public let description: String

    /// A partition's state is written to, and restored from, the state partition of the same number.
    static func statePartitions(_ topics: Topics, state: Int, input: Int) -> WorkerSetupError {
        WorkerSetupError(description: "topic \(topics.quoteState) has \(state) partitions and "
            + "\(topics.addressChanged) has \(input): the state topic must be co-partitioned with the "
            + "input (the same partition count); create it with \(input) partitions and cleanup.policy=compact")
    }
}
