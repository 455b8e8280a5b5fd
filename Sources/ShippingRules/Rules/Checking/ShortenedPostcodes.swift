/// What wallets send before payment for countries whose postal codes they shorten: Apple Pay
/// keeps the UK outward code (2–4 characters, `SW1A`) and the Canadian FSA (3 characters, `M5V`).
enum ShortenedPostcodes {
    /// The longest shortened code per country.
    static let maxLength: [String: Int] = ["GB": 4, "CA": 3]

    /// Real shortened codes, to try a regular expression on.
    static let samples: [String: [String]] = [
        "GB": ["SW1A", "EC1A", "W1A", "M1", "B33", "CR2", "EH1", "BT1"],
        "CA": ["M5V", "K1A", "H2X", "V6B", "T2P"],
    ]

    static func example(_ country: String) -> String { country == "CA" ? "M5V" : "SW1A" }

    /// Why no shortened code of `country` can meet `pattern`, or nil when one can.
    static func problem(_ pattern: PostalPattern, country: String) -> String? {
        guard let limit = maxLength[country] else { return nil }
        let what = country == "CA" ? "the FSA (like M5V)" : "the outward code (like SW1A)"
        switch pattern {
        case .exact(let code) where code.count > limit:
            return "\"\(pattern)\" is a full \(country) postcode; Apple Pay sends only \(what) before payment, so it never matches there"
                + "; write a prefix like \"\(suggestion(code, country: country))*\""
        case .prefix(let stem) where stem.count > limit:
            return "prefix \"\(pattern)\" is longer than \(what) that Apple Pay sends before payment, so it never matches there"
        case .range(let lower, _) where lower.count > limit:
            return "range \"\(pattern)\" compares \(lower.count) characters; Apple Pay sends only \(what), so it never matches there"
        case .regex:
            let tried = samples[country] ?? []
            if tried.contains(where: { pattern.matches(normalized: $0, raw: $0) }) { return nil }
            return "regular expression \"\(pattern)\" matches no shortened \(country) postcode (tried \(tried.joined(separator: ", "))); "
                + "Apple Pay sends only \(what) before payment"
        default:
            return nil
        }
    }

    /// The shortened form of a full code: the UK inward code is always the last 3 characters.
    private static func suggestion(_ code: String, country: String) -> String {
        country == "CA" ? String(code.prefix(3)) : String(code.dropLast(3))
    }
}
