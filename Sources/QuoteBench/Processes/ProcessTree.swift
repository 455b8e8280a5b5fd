import Foundation

/// The processes a child of the bench started itself, read from /proc: a `--worker-wrapper` such
/// as `perf record` or `strace` starts the worker as its own child and waits for it.
enum ProcessTree {
    /// The parent pid (field 4) from the text of `/proc/<pid>/stat`. The command name (field 2) is
    /// in parentheses and may hold spaces or parentheses, so fields count from the last `)`.
    static func parent(stat text: String) -> Int32? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so field 4 is fields[1].
        guard fields.count > 1 else { return nil }
        return Int32(fields[1])
    }

    /// The pids whose parent is `pid` now (none once it has exited, or where /proc is not there).
    static func children(of pid: Int32) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> Int32? in
            guard let child = Int32(entry),
                  let text = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  parent(stat: text) == pid else { return nil }
            return child
        }
    }
}
