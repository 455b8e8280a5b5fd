import Foundation

/// One postal-code rule: exact (`95014`), prefix (`941*`), range (`94000..94999`, `945*..947*`)
/// or a regular expression (anything starting with `^`). Exact, prefix and range compare the
/// code upper-cased without spaces or hyphens, so `SW1A 1AA` and `sw1a1aa` are one code;
/// a regular expression sees the code as the customer's wallet sent it (trimmed, upper-cased).
enum PostalPattern: Sendable, CustomStringConvertible {
    case exact(String)
    case prefix(String)
    /// Inclusive bounds of equal length, compared on the code's first `bounds.count` characters.
    case range(lower: String, upper: String)
    /// Compiled at load to a byte matcher when it is simple (see `PostalRegex`).
    case regex(PostalRegex)

    static func normalized(_ code: String) -> String {
        // ASCII codes (nearly all) are normalized byte by byte, without Character properties.
        let kept = { (b: UInt8) in b != 0x20 && b != 0x2d && !(0x09...0x0d).contains(b) }
        // Most codes are already ASCII, upper-case, without separators: nothing to make.
        if code.allUTF8({ $0 < 0x80 && kept($0) && !($0 >= 0x61 && $0 <= 0x7a) }) { return code }
        if code.allUTF8({ $0 < 0x80 }) {
            return String(unsafeUninitializedCapacity: code.utf8.count) { out in
                var n = 0
                for b in code.utf8 where kept(b) {
                    out[n] = b >= 0x61 && b <= 0x7a ? b - 0x20 : b
                    n += 1
                }
                return n
            }
        }
        return String(code.uppercased().filter { !$0.isWhitespace && $0 != "-" })
    }

    enum ParseError: Error { case invalid(String) }

    init(parsing text: String) throws(ParseError) {
        // A merchant's table holds hundreds of thousands of plain codes: those skip Foundation's
        // trimming and searching, which cost more than the rest of loading together.
        let plain = text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f && $0 != 0x2e }
        let trimmed = plain ? text : text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("^") {
            guard let re = try? NSRegularExpression(pattern: trimmed) else {
                throw .invalid("expected a valid regular expression, found \"\(trimmed)\"")
            }
            self = .regex(PostalRegex(re, source: trimmed))
            return
        }
        if !plain, let dots = trimmed.range(of: "..") {
            let lower = Self.stem(String(trimmed[..<dots.lowerBound]))
            let upper = Self.stem(String(trimmed[dots.upperBound...]))
            guard !lower.isEmpty, lower.count == upper.count, lower <= upper else {
                throw .invalid("expected a range like \"94000..94999\" or \"945*..947*\" with bounds of equal length, low first, found \"\(trimmed)\"")
            }
            self = .range(lower: lower, upper: upper)
            return
        }
        if trimmed.hasSuffix("*") {
            let stem = Self.normalized(String(trimmed.dropLast()))
            guard !stem.isEmpty, !stem.utf8.contains(UInt8(ascii: "*")) else { throw .invalid("expected a prefix like \"941*\", found \"\(trimmed)\"") }
            self = .prefix(stem)
            return
        }
        let code = Self.normalized(trimmed)
        guard !code.isEmpty, !code.utf8.contains(UInt8(ascii: "*")) else {
            throw .invalid("expected a postal code, a prefix like \"941*\", a range like \"94000..94999\" or a regex starting with ^, found \"\(trimmed)\"")
        }
        self = .exact(code)
    }

    private static func stem(_ bound: String) -> String {
        let b = bound.trimmingCharacters(in: .whitespaces)
        return normalized(b.hasSuffix("*") ? String(b.dropLast()) : b)
    }

    /// `normalized` is `PostalPattern.normalized(raw)`; `raw` is the code as sent, trimmed and
    /// upper-cased (`PlaceName.code`), which is what a regex is matched against.
    func matches(normalized code: String, raw: String) -> Bool {
        switch self {
        case .exact(let value): return code == value
        case .prefix(let stem): return code.hasPrefix(stem)
        case .range(let lower, let upper):
            guard code.count >= lower.count else { return false }     // a shortened code cannot be placed
            let head = String(code.prefix(lower.count))
            return lower <= head && head <= upper
        case .regex(let re):
            return re.matches(raw)
        }
    }

    /// The first characters every matching code starts with, for indexing; nil for a regex.
    var leadingStem: String? {
        switch self {
        case .exact(let v): return v
        case .prefix(let s): return s
        case .range(let l, let u): return String(zip(l, u).prefix { $0 == $1 }.map(\.0))
        case .regex: return nil
        }
    }

    var description: String {
        switch self {
        case .exact(let v): return v
        case .prefix(let s): return s + "*"
        case .range(let l, let u): return "\(l)..\(u)"
        case .regex(let re): return re.source
        }
    }
}
