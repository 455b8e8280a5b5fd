import Foundation

/// Folds names the way customers type them: `MONTRÉAL`, `Montreal` and ` montréal ` are one city.
enum PlaceName {
    static func fold(_ text: String) -> String {
        // Plain ASCII names (most of them) need no Unicode folding: lower-case and single spaces, byte by byte.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) {
            return String(unsafeUninitializedCapacity: text.utf8.count) { out in
                var n = 0
                for b in text.utf8 {
                    if b == 0x20 {
                        if n > 0 && out[n - 1] != 0x20 { out[n] = b; n += 1 }
                    } else {
                        out[n] = b >= 0x41 && b <= 0x5a ? b + 0x20 : b
                        n += 1
                    }
                }
                if n > 0 && out[n - 1] == 0x20 { n -= 1 }
                return n
            }
        }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Country and state codes compare upper-cased and trimmed.
    static func code(_ text: String) -> String {
        // Already a code (visible ASCII, no lower case): nearly every address. Asked of the bytes in
        // place, which costs a fraction of iterating `utf8` as a sequence.
        if text.allUTF8({ $0 >= 0x21 && $0 < 0x7f && !($0 >= 0x61 && $0 <= 0x7a) }) { return text }
        // Visible ASCII upper-cases byte by byte, as `uppercased()` would.
        if text.utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7f }) {
            if !text.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7a }) { return text }
            return String(unsafeUninitializedCapacity: text.utf8.count) { out in
                for (k, b) in text.utf8.enumerated() { out[k] = b >= 0x61 && b <= 0x7a ? b - 0x20 : b }
                return text.utf8.count
            }
        }
        return text.trimmingCharacters(in: .whitespaces).uppercased()
    }
}
