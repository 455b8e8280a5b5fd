import Foundation

/// The process's stop (SIGTERM, SIGINT) and reload (SIGHUP) signals, taken by one thread of
/// their own with `sigwait`.
///
/// Why not a dispatch signal source: it arms itself asynchronously, and a SIGTERM that came in
/// meanwhile was ignored and lost (a worker stopped right after it started kept running). Here
/// the signals are blocked before any thread exists, so every thread inherits the block and a
/// signal stays pending until the waiting thread takes it: none is lost, none runs a handler on a
/// thread that happens to be inside librdkafka.
enum ProcessSignals {
    private static let handled = [SIGTERM, SIGINT, SIGHUP]

    /// Blocks the handled signals in the calling thread. Call it first in a command, before any
    /// thread starts (librdkafka's, Foundation's, the metrics server's).
    static func hold() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the thread that takes the held signals: `stop` for SIGTERM and SIGINT, `reload`
    /// for SIGHUP (which stays pending, so ignored, without one).
    static func handle(stop: @escaping @Sendable (Int32) -> Void, reload: (@Sendable () -> Void)? = nil) {
        let thread = Thread {
            var set = signalSet()
            while true {
                var signal: Int32 = 0
                guard sigwait(&set, &signal) == 0 else { continue }
                if signal == SIGHUP { reload?() } else { stop(signal) }
            }
        }
        thread.name = "signals"
        thread.start()
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled { sigaddset(&set, signal) }
        return set
    }
}
