import Dispatch
import Synchronization

/// Runs this library's async calls from synchronous code (the commands, the bench) and waits for
/// them. Only from a thread of the caller's own: blocking one of Swift's cooperative threads
/// (two on two cores) can starve the very task it waits for.
public enum BlockingCall {
    public static func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () async throws(E) -> T) -> Result<T, E> {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<T, E>?>(nil)
        Task {
            let r: Result<T, E>
            do throws(E) { r = .success(try await work()) } catch { r = .failure(error) }
            result.withLock { $0 = r }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
