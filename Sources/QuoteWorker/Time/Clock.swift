import Foundation
import Synchronization

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
public final class ManualClock: Clock {
    private let current: Mutex<Date>

    public init(_ start: Date) { current = Mutex(start) }

    public func now() -> Date { current.withLock { $0 } }
    public func set(_ date: Date) { current.withLock { $0 = date } }
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
