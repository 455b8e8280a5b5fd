import Foundation

/// A postal-code regular expression, matched without Foundation when both sides allow it.
///
/// Rules files write simple expressions (`^\d{5}(-\d{4})?$`, `^[A-Z]{1,2}[0-9][A-Z0-9]?( ?[0-9][A-Z]{2})?$`).
/// Those are compiled at load into a small byte program; a code made only of printable ASCII is
/// matched by it, with the same answer `NSRegularExpression` gives (for such a code `\d` is
/// `[0-9]` and `$` is the end: no Unicode digit and no line terminator can occur). Any other
/// expression, and any other code, goes to `NSRegularExpression`, which stays the authority.
///
/// A class: a pattern read out of a condition's list is copied, and as a struct with its source
/// beside it that was three references counted (atomically) up and down per pattern per quote.
final class PostalRegex: @unchecked Sendable {
    // NSRegularExpression is immutable and documented thread-safe; it is not marked Sendable on Linux.
    let expression: NSRegularExpression
    /// Nil when the expression uses anything beyond the subset `ByteProgram` compiles.
    let program: ByteProgram?
    /// The expression as the rules wrote it.
    let source: String

    init(_ expression: NSRegularExpression, source: String) {
        self.expression = expression
        self.source = source
        program = ByteProgram(compiling: source)
    }

    func matches(_ code: String) -> Bool {
        // Asked where it lies: bound by `if let`, the program was retained and released (atomic) each time.
        if let answer = program?.matches(code) { return answer }
        return expression.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil
    }
}

/// A regular expression of the subset `^ atom* $?` compiled to a backtracking program over bytes.
/// Atoms: ASCII letters and digits, space and `-`; `\d`; `\` before a punctuation character;
/// classes `[...]` of those characters and ranges (no negation); groups `(...)` and `(?:...)`,
/// with alternatives `|` inside a group (Google's postal-code formats: `(?:AB|AL|B|…)`); each optionally followed by `?`, `*`, `+`, `{n}`, `{n,}` or `{n,m}`
/// (greedy only: a lazy or possessive quantifier is left to Foundation).
///
/// A class: a quote reads a zone's or a rule's expression out of the enum that holds it, and the
/// program as a struct was copied with it, a retain and a release of each of its tables.
final class ByteProgram: Sendable {
    enum Instruction: Sendable {
        /// Consume one byte in the set (bits over 0–127).
        case byte(low: UInt64, high: UInt64)
        /// Try `first`, then `second`.
        case split(Int, Int)
        case jump(Int)
        /// Succeeds only at the end of the code.
        case end
        case accept
    }

    let code: [Instruction]
    /// The same program as sets of states, for programs of up to 64 instructions (nearly every
    /// postal format; not the UK's, with its postcode areas as alternatives).
    let states: StateSets?
    /// Room for the UK's format (about 120 postcode areas as alternatives); the memo of a
    /// 10-character code then still fits in a 1 kB stack allocation.
    static let maxInstructions = 768
    /// Codes longer than this are left to Foundation (the memo below grows with the length).
    static let maxInputLength = 64

    /// Nil when `source` is outside the subset.
    init?(compiling source: String) {
        var parser = Parser(bytes: Array(source.utf8))
        guard parser.take(UInt8(ascii: "^")), let sequence = parser.sequence(), parser.atEnd else { return nil }
        var code: [Instruction] = []
        ByteProgram.emit(sequence, into: &code)
        if parser.anchoredAtEnd { code.append(.end) }
        code.append(.accept)
        guard code.count <= ByteProgram.maxInstructions else { return nil }
        self.code = code
        states = StateSets(code)
    }

    /// The answer for `text`, or nil when it is not printable ASCII (or too long) and Foundation must decide.
    func matches(_ text: String) -> Bool? {
        // The bytes where they lie (a native or small string: always on Linux), without a copy.
        if let answer = text.utf8.withContiguousStorageIfAvailable({ answer($0) }) { return answer }
        var text = text
        return text.withUTF8 { answer($0) }
    }

    private func answer(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.count <= ByteProgram.maxInputLength, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return matches(bytes)
    }

    /// The answer for printable ASCII bytes: by sets of states where the program has them, else by backtracking.
    func matches(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        if let states { return states.matches(input) }
        return backtracking(input)
    }

    /// Backtracking that visits each (instruction, position) pair at most once: a pair seen again
    /// either failed already (had it succeeded the search would have ended) or is being explored
    /// on this very path (an empty loop turn, which adds nothing). So it is linear in
    /// instructions × length, whatever the expression. Every program; the only way for those over
    /// 64 instructions.
    func backtracking(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        let width = input.count + 1
        let cells = code.count * width
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (cells + 63) / 64) { visited in
            visited.initialize(repeating: 0)
            return code.withUnsafeBufferPointer { code in
                run(0, 0, code, input, visited, width)
            }
        }
    }

    private func run(_ start: Int, _ position: Int, _ code: UnsafeBufferPointer<Instruction>, _ input: UnsafeBufferPointer<UInt8>,
                     _ visited: UnsafeMutableBufferPointer<UInt64>, _ width: Int) -> Bool {
        var pc = start, at = position
        while true {
            let cell = pc * width + at
            if visited[cell >> 6] & (1 << UInt64(cell & 63)) != 0 { return false }
            visited[cell >> 6] |= 1 << UInt64(cell & 63)
            switch code[pc] {
            case .byte(let low, let high):
                guard at < input.count else { break }
                let b = input[at]
                let hit = b < 64 ? low & (1 << UInt64(b)) != 0 : b < 128 && high & (1 << UInt64(b - 64)) != 0
                guard hit else { break }
                pc += 1
                at += 1
                continue
            case .split(let first, let second):
                if run(first, at, code, input, visited, width) { return true }
                pc = second
                continue
            case .jump(let target):
                pc = target
                continue
            case .end:
                guard at == input.count else { break }
                pc += 1
                continue
            case .accept:
                return true
            }
            return false
        }
    }

    /// A program of up to 64 instructions run on all its paths at once (Thompson's construction):
    /// the live instructions are the bits of one word, and each byte of the code moves them with a
    /// table look-up, an AND and an OR per live instruction. The same answers as `backtracking`,
    /// which visits the same (instruction, position) pairs one path at a time; the tests hold both
    /// to Foundation's.
    struct StateSets: Sendable {
        /// For each byte value below 128, the `.byte` instructions that consume it.
        private let consuming: [UInt64]
        /// For each instruction, the `.byte`, `.end` and `.accept` instructions reached from it
        /// through splits and jumps, itself included when it is one of those.
        private let reach: [UInt64]
        private let accepts: UInt64
        private let ends: UInt64

        init?(_ code: [Instruction]) {
            guard code.count <= 64 else { return nil }
            var consuming = [UInt64](repeating: 0, count: 128)
            var accepts: UInt64 = 0, ends: UInt64 = 0
            for (pc, instruction) in code.enumerated() {
                switch instruction {
                case .byte(let low, let high):
                    for b in 0..<128 where b < 64 ? low & (1 << UInt64(b)) != 0 : high & (1 << UInt64(b - 64)) != 0 {
                        consuming[b] |= 1 << UInt64(pc)
                    }
                case .accept: accepts |= 1 << UInt64(pc)
                case .end: ends |= 1 << UInt64(pc)
                case .split, .jump: break
                }
            }
            self.consuming = consuming
            self.accepts = accepts
            self.ends = ends
            reach = code.indices.map { start in
                var found: UInt64 = 0, seen: UInt64 = 0
                var pending = [start]
                while let pc = pending.popLast() {
                    guard seen & (1 << UInt64(pc)) == 0 else { continue }
                    seen |= 1 << UInt64(pc)
                    switch code[pc] {
                    case .split(let first, let second): pending += [second, first]
                    case .jump(let target): pending.append(target)
                    case .byte, .end, .accept: found |= 1 << UInt64(pc)
                    }
                }
                return found
            }
        }

        func matches(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
            var live = reach[0]
            for b in input {
                if live & accepts != 0 { return true }
                // A byte from 128 up is in no set (as in `backtracking`): every path ends there.
                var moved = b < 128 ? live & consuming[Int(b)] : 0
                guard moved != 0 else { return false }
                live = 0
                while moved != 0 {
                    live |= reach[moved.trailingZeroBitCount + 1]
                    moved &= moved - 1
                }
            }
            // At the end, `.end` lets its path on, and what follows may be another `.end`.
            var passed: UInt64 = 0
            while live & accepts == 0 {
                var atEnd = live & ends & ~passed
                guard atEnd != 0 else { return false }
                passed |= atEnd
                while atEnd != 0 {
                    live |= reach[atEnd.trailingZeroBitCount + 1]
                    atEnd &= atEnd - 1
                }
            }
            return true
        }
    }

    // MARK: compiling

    indirect enum Node: Sendable {
        case bytes(low: UInt64, high: UInt64)
        case group([Quantified])
        /// Two or more sequences, any of which may match.
        case alternatives([[Quantified]])
    }

    struct Quantified: Sendable {
        var node: Node
        var min: Int
        /// Nil: unbounded.
        var max: Int?
    }

    private static func emit(_ sequence: [Quantified], into code: inout [Instruction]) {
        for item in sequence { emit(item, into: &code) }
    }

    private static func emit(_ item: Quantified, into code: inout [Instruction]) {
        for _ in 0..<item.min { emit(item.node, into: &code) }
        if let max = item.max {
            // Each optional copy: split(take it, skip the rest); the skips are patched to the end.
            var splits: [Int] = []
            for _ in item.min..<max {
                splits.append(code.count)
                code.append(.accept)    // placeholder
                emit(item.node, into: &code)
            }
            for s in splits { code[s] = .split(s + 1, code.count) }
        } else {
            let loop = code.count
            code.append(.accept)        // placeholder
            emit(item.node, into: &code)
            code.append(.jump(loop))
            code[loop] = .split(loop + 1, code.count)
        }
    }

    private static func emit(_ node: Node, into code: inout [Instruction]) {
        switch node {
        case .bytes(let low, let high): code.append(.byte(low: low, high: high))
        case .group(let sequence): emit(sequence, into: &code)
        case .alternatives(let sequences):
            // split(this one, the next split) before each but the last; each taken one jumps past the rest.
            var jumps: [Int] = []
            for (k, sequence) in sequences.enumerated() {
                guard k < sequences.count - 1 else { emit(sequence, into: &code); break }
                let split = code.count
                code.append(.accept)    // placeholder
                emit(sequence, into: &code)
                jumps.append(code.count)
                code.append(.accept)    // placeholder
                code[split] = .split(split + 1, code.count)
            }
            for j in jumps { code[j] = .jump(code.count) }
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var i = 0
        var anchoredAtEnd = false
        /// Bounds the program's size before it is built (a `{1000}` would unroll).
        /// (An estimate above the real size, compounding with nesting: what is emitted is checked against `maxInstructions` again.)
        var budget = ByteProgram.maxInstructions * 16

        var atEnd: Bool { i == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }

        /// Atoms until the end, a `)` or `|` (left for the caller) or a final `$`.
        mutating func sequence() -> [Quantified]? {
            var items: [Quantified] = []
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: ")") || b == UInt8(ascii: "|") { break }
                if b == UInt8(ascii: "$") {
                    // Only as the very last character, at the top level.
                    guard i == bytes.count - 1 else { return nil }
                    i += 1
                    anchoredAtEnd = true
                    break
                }
                guard let node = atom(), let item = quantifier(node) else { return nil }
                items.append(item)
            }
            return items
        }

        mutating func atom() -> Node? {
            let b = bytes[i]
            i += 1
            switch b {
            case UInt8(ascii: "("):
                // A plain or non-capturing group (captures do not change whether there is a match).
                if take(UInt8(ascii: "?")) { guard take(UInt8(ascii: ":")) else { return nil } }
                guard let inner = sequence(), !anchoredAtEnd else { return nil }
                var sequences = [inner]
                while take(UInt8(ascii: "|")) {
                    guard let next = sequence(), !anchoredAtEnd else { return nil }
                    sequences.append(next)
                }
                guard take(UInt8(ascii: ")")) else { return nil }
                return sequences.count == 1 ? .group(inner) : .alternatives(sequences)
            case UInt8(ascii: "["):
                return characterClass()
            case UInt8(ascii: "\\"):
                guard i < bytes.count else { return nil }
                let escaped = bytes[i]
                i += 1
                if escaped == UInt8(ascii: "d") { return ByteProgram.set(UInt8(ascii: "0")...UInt8(ascii: "9")) }
                // A backslash before punctuation means the character itself; before a letter or digit it is a class or a reference.
                guard ByteProgram.isPunctuation(escaped) else { return nil }
                return ByteProgram.set(escaped...escaped)
            default:
                guard ByteProgram.isPlain(b) else { return nil }
                return ByteProgram.set(b...b)
            }
        }

        /// `[` taken: letters, digits, space, `\d`, escaped punctuation, `-` at either end, and ranges of letters or digits.
        mutating func characterClass() -> Node? {
            var low: UInt64 = 0, high: UInt64 = 0
            var first = true
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                if b == UInt8(ascii: "]") && !first { return .bytes(low: low, high: high) }
                if b == UInt8(ascii: "\\") {
                    // `\d` (the ASCII digits, as for any printable ASCII code) or an escaped punctuation character.
                    guard i < bytes.count else { return nil }
                    let escaped = bytes[i]
                    i += 1
                    let range: ClosedRange<UInt8>
                    if escaped == UInt8(ascii: "d") { range = UInt8(ascii: "0")...UInt8(ascii: "9") }
                    else if ByteProgram.isPunctuation(escaped) { range = escaped...escaped }
                    else { return nil }
                    guard case .bytes(let l, let h) = ByteProgram.set(range) else { return nil }
                    low |= l
                    high |= h
                    first = false
                    continue
                }
                if b == UInt8(ascii: "-") {
                    // Literal only first or last.
                    guard first || (i < bytes.count && bytes[i] == UInt8(ascii: "]")) else { return nil }
                } else {
                    guard ByteProgram.isAlphanumeric(b) || b == UInt8(ascii: " ") else { return nil }
                }
                var upper = b
                if b != UInt8(ascii: "-"), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "-"), bytes[i + 1] != UInt8(ascii: "]") {
                    upper = bytes[i + 1]
                    guard ByteProgram.sameKind(b, upper), b <= upper else { return nil }
                    i += 2
                }
                guard case .bytes(let l, let h) = ByteProgram.set(b...upper) else { return nil }
                low |= l
                high |= h
                first = false
            }
            return nil
        }

        mutating func quantifier(_ node: Node) -> Quantified? {
            var item = Quantified(node: node, min: 1, max: 1)
            guard i < bytes.count else { return charge(item) }
            switch bytes[i] {
            case UInt8(ascii: "?"): i += 1; item.min = 0
            case UInt8(ascii: "*"): i += 1; item.min = 0; item.max = nil
            case UInt8(ascii: "+"): i += 1; item.max = nil
            case UInt8(ascii: "{"):
                i += 1
                guard let n = number() else { return nil }
                item.min = n
                item.max = n
                if take(UInt8(ascii: ",")) {
                    if let m = number() { guard m >= n else { return nil }; item.max = m } else { item.max = nil }
                }
                guard take(UInt8(ascii: "}")) else { return nil }
            default:
                return charge(item)
            }
            // A lazy (`??`) or possessive (`?+`) form, or a quantifier stacked on one, is left to Foundation.
            if i < bytes.count, [UInt8(ascii: "?"), UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "{")].contains(bytes[i]) { return nil }
            return charge(item)
        }

        private mutating func charge(_ item: Quantified) -> Quantified? {
            let copies = (item.max ?? item.min + 1) + 1
            budget -= copies * ByteProgram.size(item.node)
            return budget >= 0 ? item : nil
        }

        mutating func number() -> Int? {
            let start = i
            var value = 0
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57, i - start < 4 {
                value = value * 10 + Int(bytes[i] - 48)
                i += 1
            }
            return i > start ? value : nil
        }
    }

    private static func size(_ node: Node) -> Int {
        switch node {
        case .bytes: return 1
        case .group(let items): return size(items)
        case .alternatives(let sequences): return sequences.reduce(0) { $0 + size($1) + 2 }
        }
    }

    private static func size(_ items: [Quantified]) -> Int {
        items.reduce(0) { $0 + ($1.max ?? $1.min + 1 + 1) * size($1.node) + 1 }
    }

    static func set(_ range: ClosedRange<UInt8>) -> Node {
        var low: UInt64 = 0, high: UInt64 = 0
        for b in range where b < 128 {
            if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) }
        }
        return .bytes(low: low, high: high)
    }

    static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    /// A character that stands for itself outside a class: letters, digits, space, `-`.
    static func isPlain(_ b: UInt8) -> Bool { isAlphanumeric(b) || b == UInt8(ascii: " ") || b == UInt8(ascii: "-") }

    static func isPunctuation(_ b: UInt8) -> Bool { b > 0x20 && b < 0x7F && !isAlphanumeric(b) }

    static func sameKind(_ a: UInt8, _ b: UInt8) -> Bool {
        func kind(_ x: UInt8) -> Int { x <= 0x39 ? 0 : x <= 0x5A ? 1 : 2 }
        return isAlphanumeric(a) && isAlphanumeric(b) && kind(a) == kind(b)
    }
}
