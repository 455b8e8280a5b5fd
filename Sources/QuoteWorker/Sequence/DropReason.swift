/// Why an event got no reply. Every drop is counted under one of these, never lost silently.
public enum DropReason: String, Sendable, CaseIterable {
    /// Its sequence is below the highest already taken for the session (an older address).
    case stale
    /// Its sequence equals the highest already taken (a redelivery).
    case duplicate
    /// A newer event of the same session reached the worker before this one was answered.
    case superseded
    /// Its `reply_by` (or the default time-to-live) passed before the worker took it.
    case expired
    /// Unreadable (it went to the dead-letter topic) and no `rejected` reply could go out: its session
    /// or sequence could not be read, or its sequence is not above the session's.
    case unanswerable
}
