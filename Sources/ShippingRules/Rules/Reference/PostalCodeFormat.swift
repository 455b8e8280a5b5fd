import Foundation

/// A country's real postal-code format (Google's address data, generated `PostalCodeFormats`),
/// for `postal_code_not_valid_for_country`. Compiled once, on first use, for every country.
struct PostalCodeFormat: Sendable {
    let regex: PostalRegex
    /// Apple Pay's shortened form (UK outward code, Canadian FSA): the longest such code, and the
    /// smallest rest that completes it to a full code of the format (` 0AA`).
    let shortened: (maxLength: Int, completion: String)?

    /// Country code → format; a country missing here has no postal codes in the data.
    static let countries: [String: PostalCodeFormat] = {
        var short: [String: (Int, String)] = [:]
        for line in PostalCodeFormats.shortened.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let length = Int(parts[1]) else { continue }
            short[String(parts[0])] = (length, String(parts[2]))
        }
        var table: [String: PostalCodeFormat] = [:]
        for line in PostalCodeFormats.countries.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let source = "^(?:" + line[line.index(after: equals)...] + ")$"
            guard let expression = try? NSRegularExpression(pattern: source) else { continue }
            let country = String(line[..<equals])
            table[country] = PostalCodeFormat(regex: PostalRegex(expression, source: source), shortened: short[country])
        }
        return table
    }()

    /// Whether the code (trimmed and upper-cased, as sent) is one of the country's: a full code, or
    /// a shortened one where Apple Pay shortens. A code no longer than the shortened form is only
    /// ever one (full UK postcodes have 5 characters or more, Canadian 6), so it is matched once,
    /// completed; the completed code stays a small string (no allocation).
    func accepts(_ raw: String) -> Bool {
        if let shortened, raw.utf8.count <= shortened.maxLength { return regex.matches(raw + shortened.completion) }
        return regex.matches(raw)
    }
}
