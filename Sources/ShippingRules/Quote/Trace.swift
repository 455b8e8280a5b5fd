/// The explain trace, built only when asked for: a plain `quote` pays nothing for the messages.
struct Trace {
    let enabled: Bool
    private(set) var lines: [String] = []

    init(enabled: Bool) { self.enabled = enabled }

    mutating func add(_ line: @autoclosure () -> String) {
        if enabled { lines.append(line()) }
    }

    mutating func add(contentsOf other: Trace, prefix: @autoclosure () -> String = "") {
        guard enabled else { return }
        let head = prefix()
        lines.append(contentsOf: other.lines.map { head + $0 })
    }
}
