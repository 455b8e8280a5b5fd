import Foundation

/// A one-line progress bar on stderr, only when stderr is a terminal and only once a phase has
/// run for a couple of seconds (short runs and pipes stay clean).
final class ProgressBar {
    private let label: String
    private let enabled: Bool
    private let started = uptimeNanoseconds()
    private var shown = false

    init(label: String, enabled: Bool) {
        self.label = label
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    func update(done: Int, of total: Int, detail: String) {
        guard enabled, uptimeNanoseconds() - started > 2_000_000_000 else { return }
        shown = true
        let width = 30
        let filled = total > 0 ? min(width, done * width / total) : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        write("\r\u{1B}[2K\(label) \(bar) \(done)/\(total) \(detail)")
    }

    func finish() {
        if shown { write("\r\u{1B}[2K") }
    }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
