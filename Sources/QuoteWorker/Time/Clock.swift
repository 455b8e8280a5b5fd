import Foundation

/// Where the worker reads the time. Injected, so that tests decide what "now" is.
public protocol Clock: Sendable {
    func now() -> Date
}

/// The machine's wall clock.
public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that says what it is told; for tests and replays.
public final class ManualClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date) { current = start }

    public func now() -> Date { lock.withLock { current } }
    public func set(_ date: Date) { lock.withLock { current = date } }
    public func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
}
