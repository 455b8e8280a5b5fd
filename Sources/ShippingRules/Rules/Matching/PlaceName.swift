import Foundation

/// Folds names the way customers type them: `MONTRÉAL`, `Montreal` and ` montréal ` are one city.
enum PlaceName {
    static func fold(_ text: String) -> String {
        // Plain ASCII names (most of them) need no Unicode folding: lower-case and single spaces, byte by byte.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            for b in text.utf8 {
                if b == 0x20 {
                    if let last = bytes.last, last != 0x20 { bytes.append(b) }
                } else {
                    bytes.append(b >= 0x41 && b <= 0x5a ? b + 0x20 : b)
                }
            }
            if bytes.last == 0x20 { bytes.removeLast() }
            return String(decoding: bytes, as: UTF8.self)
        }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Country and state codes compare upper-cased and trimmed.
    static func code(_ text: String) -> String {
        // Visible ASCII (nearly every code) upper-cases byte by byte, as `uppercased()` would.
        if text.utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7f }) {
            if !text.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7a }) { return text }
            return String(decoding: text.utf8.map { $0 >= 0x61 && $0 <= 0x7a ? $0 - 0x20 : $0 }, as: UTF8.self)
        }
        return text.trimmingCharacters(in: .whitespaces).uppercased()
    }
}
