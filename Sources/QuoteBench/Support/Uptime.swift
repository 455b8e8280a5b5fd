import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Monotonic nanoseconds: the one clock every stamp of a run uses.
@inline(__always) func uptimeNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// CPU time of the calling thread: on a shared machine it counts the bench's own work, where wall
/// time also counts the time other processes held the core.
func threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
