/// A list of postal patterns as a quote asks it. A code of ASCII (nearly every one) is compared
/// as bytes with the exact codes, prefixes and ranges compiled at load: a range is two byte
/// comparisons, where comparing `String`s made a string of the code's head and compared it with
/// Unicode's rules, and a merchant's ZIP table of 40,000 exact codes is one integer hash lookup.
/// Other codes, and patterns that are not ASCII, are asked as `PostalPattern`s do. A class: zones
/// hold it, and a zone's copy then retains one reference.
final class PostalMatch: Sendable {
    private enum Kind: UInt8 { case exact, prefix, range }
    private struct Entry { var kind: Kind; var start: Int; var count: Int }

    /// Asked for every code: regular expressions, and patterns that are not ASCII.
    private let others: [PostalPattern]
    /// The ASCII exact, prefix and range patterns, their bytes in `bytes` (a range's upper bound
    /// right after its lower).
    private let entries: [Entry]
    private let bytes: [UInt8]
    /// The patterns `entries` were made from, asked as they are by a code that is not ASCII.
    private let entryPatterns: [PostalPattern]
    /// In a long list, ASCII exact codes of up to 7 bytes as `CodeList.word`s, and other exact
    /// codes as strings, instead of entries.
    private let packedExact: Set<UInt64>
    private let exact: Set<String>

    init(_ patterns: [PostalPattern]) {
        let long = patterns.count > 8
        var others: [PostalPattern] = [], entries: [Entry] = [], bytes: [UInt8] = [], entryPatterns: [PostalPattern] = []
        var packedExact = Set<UInt64>(), exact = Set<String>()
        func isASCII(_ text: String) -> Bool { text.allUTF8 { $0 < 0x80 } }
        func add(_ pattern: PostalPattern, _ kind: Kind, _ parts: String...) {
            entryPatterns.append(pattern)
            entries.append(Entry(kind: kind, start: bytes.count, count: parts[0].utf8.count))
            for part in parts { bytes.append(contentsOf: part.utf8) }
        }
        for pattern in patterns {
            switch pattern {
            case .exact(let code) where long:
                let word = isASCII(code) ? CodeList.word(code) : 0
                if word != 0 { packedExact.insert(word) } else { exact.insert(code) }
            case .exact(let code) where isASCII(code): add(pattern, .exact, code)
            case .prefix(let stem) where isASCII(stem): add(pattern, .prefix, stem)
            case .range(let lower, let upper) where isASCII(lower) && isASCII(upper) && lower.utf8.count == upper.utf8.count:
                add(pattern, .range, lower, upper)
            default: others.append(pattern)
            }
        }
        self.others = others
        self.entries = entries
        self.bytes = bytes
        self.entryPatterns = entryPatterns
        self.packedExact = packedExact
        self.exact = exact
    }

    func matches(normalized code: String, raw: String) -> Bool {
        let byBytes: Bool? = code.utf8.withContiguousStorageIfAvailable { c -> Bool? in
            guard c.allSatisfy({ $0 < 0x80 }) else { return nil }
            return matchesASCII(c)
        } ?? nil
        if let byBytes {
            if byBytes { return true }
            // An ASCII code is never one of the long list's non-ASCII exact codes.
        } else {
            if !exact.isEmpty, exact.contains(code) { return true }
            if !packedExact.isEmpty, packedExact.contains(CodeList.word(code)) { return true }
            if entryPatterns.contains(where: { $0.matches(normalized: code, raw: raw) }) { return true }
        }
        return others.contains { $0.matches(normalized: code, raw: raw) }
    }

    private func matchesASCII(_ c: UnsafeBufferPointer<UInt8>) -> Bool {
        if !packedExact.isEmpty, c.count <= 7, packedExact.contains(CodeList.word(utf8: c)) { return true }
        if !exact.isEmpty, exact.contains(String(decoding: c, as: UTF8.self)) { return true }
        return bytes.withUnsafeBufferPointer { b in
            for entry in entries {
                let n = entry.count
                switch entry.kind {
                case .exact:
                    if c.count == n && Self.compare(c, b, entry.start, n) == 0 { return true }
                case .prefix:
                    if c.count >= n && Self.compare(c, b, entry.start, n) == 0 { return true }
                case .range:
                    // A shortened code cannot be placed; the bounds compare the code's first n bytes.
                    if c.count >= n && Self.compare(c, b, entry.start, n) >= 0 && Self.compare(c, b, entry.start + n, n) <= 0 { return true }
                }
            }
            return false
        }
    }

    /// The code's first `n` bytes against `n` bytes of `b` from `start`: -1, 0 or 1.
    @inline(__always)
    private static func compare(_ c: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int) -> Int {
        for k in 0..<n where c[k] != b[start + k] { return c[k] < b[start + k] ? -1 : 1 }
        return 0
    }
}
