import Dispatch

/// Monotonic nanoseconds: the one clock every stamp of a run uses.
@inline(__always) func uptimeNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
