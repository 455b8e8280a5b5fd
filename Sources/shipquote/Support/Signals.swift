import Foundation
import Synchronization

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
        parentAtStart.store(getppid(), ordering: .relaxed)
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

    /// `--exit-with-parent`: once the process that started this one has exited (the kernel hands
    /// this one to another parent), `noticed` runs, then the same stop as SIGTERM; if this process
    /// is still running `seconds` later (a worker whose broker went with its parent can wait on
    /// it), `giveUp` runs and it exits 1. For a parent that cannot be sure to stop its children itself, such as a
    /// `bench --process` killed with SIGKILL: Foundation's Process cannot ask for PR_SET_PDEATHSIG,
    /// and that signal would follow the parent's thread, not its process. Watched by polling the
    /// parent's pid, which changes only when the whole parent process is gone.
    static func stopWithParent(within seconds: Double, noticed: @escaping @Sendable () -> Void = {},
                               giveUp: @escaping @Sendable () -> Void) {
        // The parent as `hold` saw it, first thing: one that exits while the command starts up is still
        // noticed. (0 is a real answer: a parent outside this pid namespace, as under `docker exec`.)
        let held = parentAtStart.load(ordering: .relaxed)
        let parent = held != Self.notRecorded ? held : getppid()
        let thread = Thread {
            while getppid() == parent { usleep(Self.parentPollMicroseconds) }
            noticed()
            kill(getpid(), SIGTERM)
            // Slept to a deadline: a sleep cut short by a signal must not end the process early.
            let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1_000))
            while ContinuousClock.now < deadline { usleep(Self.parentPollMicroseconds) }
            giveUp()
            _exit(ExitCode.failure)
        }
        thread.name = "parent-watch"
        thread.start()
    }

    /// The parent's pid when `hold` ran (`notRecorded` before).
    private static let parentAtStart = Atomic<Int32>(notRecorded)
    private static let notRecorded: Int32 = -1

    /// How often `stopWithParent` looks at the parent's pid: a child notices its parent gone within this.
    private static let parentPollMicroseconds: UInt32 = 250_000

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled { sigaddset(&set, signal) }
        return set
    }
}
