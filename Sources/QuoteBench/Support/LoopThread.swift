import Foundation
import Synchronization

/// A thread of its own for a loop that runs until asked to stop (the reply reader, an echo
/// worker): `stop()` returns once the loop has ended and cleaned up after itself.
final class LoopThread: Sendable {
    private let name: String
    private let running = Mutex(true)
    private let done = DispatchSemaphore(value: 0)

    init(name: String) { self.name = name }

    /// Runs `body` on the thread; it loops while `keepGoing()` and then closes what it opened.
    func start(_ body: @escaping @Sendable (_ keepGoing: () -> Bool) -> Void) {
        let thread = Thread { [self] in
            body { running.withLock { $0 } }
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    func stop() {
        running.withLock { $0 = false }
        done.wait()
    }
}
