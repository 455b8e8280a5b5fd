import Foundation

/// `/proc/<pid>/stat`, read by field number (as proc(5) numbers them).
enum ProcessStat {
    /// The text of `/proc/<pid>/stat`; nil once the process is gone (or where /proc is not there).
    static func text(pid: Int32) -> String? { try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) }

    /// Field `number` (4 and up) as a whole number. The command name (field 2) is in parentheses
    /// and may hold spaces or parentheses, so fields count from the last `)`.
    static func field(_ number: Int, of text: String) -> Int? {
        guard number >= 3, let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so field n is fields[n - 3].
        guard fields.count > number - 3 else { return nil }
        return Int(fields[number - 3])
    }
}
