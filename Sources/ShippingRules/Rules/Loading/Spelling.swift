/// Suggests the key a typo most likely meant, so `fre_over` answers "did you mean 'free_over'?".
enum Spelling {
    static func nearest(to word: String, among candidates: Set<String>) -> String? {
        let best = candidates.map { ($0, distance(word, $0)) }.min { ($0.1, $0.0) < ($1.1, $1.0) }
        guard let (name, d) = best, d <= max(1, word.count / 3) else { return nil }
        return name
    }

    /// Levenshtein distance on characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
