import Foundation

/// Folds names the way customers type them: `MONTRÉAL`, `Montreal` and ` montréal ` are one city.
enum PlaceName {
    static func fold(_ text: String) -> String {
        // Plain ASCII names (most of them) need no Unicode folding.
        if text.utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7f }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Country and state codes compare upper-cased and trimmed.
    static func code(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7f }) { return text.uppercased() }
        return text.trimmingCharacters(in: .whitespaces).uppercased()
    }
}
