import Foundation

/// The processes a child of the bench started, read from /proc: a `--worker-wrapper` such as
/// `perf record` or `strace` runs the worker as its child and waits for it (`sudo perf …` or
/// `sh -c 'perf …'` one level further down).
enum ProcessTree {
    /// The parent pid (field 4) from the text of `/proc/<pid>/stat`.
    static func parent(stat text: String) -> Int32? { ProcessStat.field(4, of: text).flatMap { Int32(exactly: $0) } }

    /// Every process below `pid` now: its children, theirs, and so on (none once it has exited, or
    /// where /proc is not there). One reading of /proc, so the tree is that moment's.
    static func descendants(of pid: Int32) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var children: [Int32: [Int32]] = [:]
        for entry in entries {
            guard let child = Int32(entry), let text = ProcessStat.text(pid: child), let parent = parent(stat: text) else { continue }
            children[parent, default: []].append(child)
        }
        var found: [Int32] = [], waiting = children[pid] ?? []
        while let next = waiting.popLast() {
            found.append(next)
            waiting += children[next] ?? []
        }
        return found
    }
}
