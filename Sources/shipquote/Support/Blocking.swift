import Dispatch
import Synchronization

/// Runs async work from a synchronous command and waits for it: the commands are plain
/// functions, the gateway's API is async.
enum Blocking {
    static func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () async throws(E) -> T) -> Result<T, E> {
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
