import Foundation

/// Puts the address a wallet sent into the codes rules are written in, before any rule runs.
/// Apple Pay passes what the customer's contact card holds: `United States`, `us`, `California`,
/// `Québec`, `東京都`, `９００-０００１`. Countries become ISO 3166-1 alpha-2 codes, subdivisions of
/// the countries in `AddressNames` (US, CA, JP, the UK nations) ISO 3166-2 codes (`CA`, `QC`, `13`),
/// and postal codes ASCII (full-width and other Unicode digits, letters and dashes).
/// An address already in codes (nearly every one) is checked byte by byte and not copied.
enum AddressNormalizer {
    /// The address in codes, and one `field "sent" → CODE` entry for each field changed.
    static func normalize(_ address: PartialAddress) -> (address: PartialAddress, changes: [String]) {
        var country = address.countryCode, state = address.state, postalCode = address.postalCode
        var changes: [String] = []
        if let sent = address.countryCode, let code = countryCode(sent) {
            country = code
            changes.append("country \"\(sent)\" → \(code)")
        }
        if let sent = address.state, let country, let code = subdivisionCode(sent, country: country) {
            state = code
            changes.append("state \"\(sent)\" → \(code) (\(country)-\(code))")
        }
        if let sent = address.postalCode, let code = asciiPostalCode(sent) {
            postalCode = code
            changes.append("postal code \"\(sent)\" → \(code)")
        }
        return (PartialAddress(city: address.city, state: state, postalCode: postalCode, countryCode: country), changes)
    }

    /// The ISO code for what was sent, or nil when it is already one (or is no name we know).
    static func countryCode(_ text: String) -> String? {
        if text.utf8.count == 2, text.allUTF8({ $0 >= 0x41 && $0 <= 0x5a }) { return text == "UK" ? "GB" : nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.utf8.count == 2, trimmed.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7a }) {
            // UK is the one two-letter code people write that is not the country's ISO code (GB).
            let upper = trimmed.uppercased() == "UK" ? "GB" : trimmed.uppercased()
            return upper == text ? nil : upper
        }
        guard let code = tables.countries[key(trimmed)] else { return nil }
        return code == text ? nil : code
    }

    /// The ISO 3166-2 code (the part after `US-`) for what was sent, or nil when it is already one,
    /// the country has no table, or the name is not in it.
    static func subdivisionCode(_ text: String, country: String) -> String? {
        // Only a few countries have tables: a two-byte compare rules the rest out without hashing.
        guard country.utf8.count == 2, let found = tables.subdivisions(of: country) else { return nil }
        // A code as sent (nearly every address) is found by a binary search over packed bytes.
        if let packed = Subdivisions.pack(text), found.table.packedCodes.contains(packed) { return nil }
        let folded = key(text)
        if let code = found.table.names[folded] { return code }
        var upper = folded.uppercased()
        if upper.hasPrefix(country + " ") { upper.removeFirst(country.count + 1) }      // "US-CA" (punctuation folds to a space)
        if found.table.codes.contains(upper) { return upper == text ? nil : upper }
        return nil
    }

    /// The code in ASCII when it holds other characters that stand for ASCII ones (full-width
    /// `９００－０００１`, Arabic-Indic `١٢٣`, dashes `‐ − ー`); nil when it is ASCII already.
    static func asciiPostalCode(_ text: String) -> String? {
        if text.allUTF8({ $0 < 0x80 }) { return nil }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x7f: out.append(scalar)
            case 0xff01...0xff5e: out.append(Unicode.Scalar(scalar.value - 0xfee0)!)     // full-width ASCII
            case 0x3000, 0x00a0, 0x2000...0x200a, 0x202f: out.append(" ")
            case 0x2010...0x2015, 0x2212, 0x30fc, 0xff70, 0xfe58, 0xfe63: out.append("-")
            default:
                if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue,
                   value >= 0, value <= 9, let digit = Unicode.Scalar(0x30 + UInt32(value)) {
                    out.append(digit)
                } else if scalar.properties.generalCategory == .dashPunctuation {
                    out.append("-")
                } else {
                    out.append(scalar)
                }
            }
        }
        let code = String(out)
        return code == text ? nil : code
    }

    /// Names compare case-, accent- and width-insensitively, with `-.'’,()` as spaces.
    static func key(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        let spaced = folded.unicodeScalars.map { "-.'’,()".unicodeScalars.contains($0) ? " " : Character($0) }
        return String(spaced).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    struct Subdivisions: Sendable {
        var codes: Set<String> = [] { didSet { packedCodes = PackedCodes(codes.compactMap(Self.pack)) } }
        var names: [String: String] = [:]
        var packedCodes = PackedCodes([])

        /// An upper-case ASCII code of 1 to 3 letters or digits as one integer; nil for anything else.
        static func pack(_ text: String) -> UInt32? {
            var value: UInt32 = 0
            var count = 0
            for b in text.utf8 {
                guard count < 3, (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) else { return nil }
                value = value << 8 | UInt32(b)
                count += 1
            }
            return count == 0 ? nil : value
        }
    }

    /// Sorted packed codes: a lookup is a handful of integer compares, no hashing.
    struct PackedCodes: Sendable {
        private let sorted: [UInt32]
        init(_ codes: [UInt32]) { sorted = codes.sorted() }
        func contains(_ code: UInt32) -> Bool {
            var low = 0, high = sorted.count
            while low < high {
                let mid = (low + high) / 2
                if sorted[mid] < code { low = mid + 1 } else { high = mid }
            }
            return low < sorted.count && sorted[low] == code
        }
    }

    /// One country's finished table behind a reference: a quote asks for it on every address,
    /// and a copy of the struct (a set, a dictionary, a list) was three retains and three releases.
    final class SubdivisionTable: Sendable {
        let table: Subdivisions
        init(_ table: Subdivisions) { self.table = table }
    }

    struct Tables: Sendable {
        var countries: [String: String] = [:]
        var subdivisions: [String: Subdivisions] = [:]
        /// The same tables by `CodeList.word` of the country: a handful, walked without hashing,
        /// the words apart so that the walk touches no table.
        private var words: [UInt64] = []
        private var tables: [SubdivisionTable] = []

        /// Files `subdivisions` by word, once they are all read.
        mutating func fileByWord() {
            words = subdivisions.keys.map(CodeList.word)
            tables = subdivisions.values.map(SubdivisionTable.init)
        }

        func subdivisions(of country: String) -> SubdivisionTable? { subdivisions(ofWord: CodeList.word(country)) }

        /// The same by `CodeList.word` of the country.
        func subdivisions(ofWord word: UInt64) -> SubdivisionTable? {
            guard let i = words.firstIndex(of: word) else { return nil }
            return tables[i]
        }
    }

    /// Built once from the generated `AddressNames`; a name two codes share is left out.
    static let tables: Tables = {
        var tables = Tables()
        var ambiguous: Set<String> = []
        for line in AddressNames.countries.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            let code = String(line[..<eq])
            for name in line[line.index(after: eq)...].split(separator: "|") {
                let k = key(String(name))
                if let other = tables.countries[k], other != code { ambiguous.insert(k) }
                tables.countries[k] = code
            }
        }
        for k in ambiguous { tables.countries[k] = nil }
        for line in AddressNames.subdivisions.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "="), let dash = line.firstIndex(of: "-"), dash < eq else { continue }
            let country = String(line[..<dash]), code = String(line[line.index(after: dash)..<eq])
            tables.subdivisions[country, default: Subdivisions()].codes.insert(code)
            for name in line[line.index(after: eq)...].split(separator: "|") {
                tables.subdivisions[country, default: Subdivisions()].names[key(String(name))] = code
            }
        }
        tables.fileByWord()
        return tables
    }()
}

extension AddressNormalizer {
    /// The address in codes, or nil when it is in codes already; the explain trace says what was changed.
    static func normalizedIfChanged(_ address: PartialAddress, trace: inout Trace) -> PartialAddress? {
        if isInCodes(address) { return nil }
        let (result, changes) = normalize(address)
        if changes.isEmpty { return nil }
        trace.add("address normalised: " + changes.joined(separator: "; "))
        return result
    }

    /// Whether `normalize` would change nothing: the same three questions it asks, without a copy.
    static func isInCodes(_ address: PartialAddress) -> Bool {
        if let sent = address.countryCode, countryCode(sent) != nil { return false }
        if let sent = address.state, let country = address.countryCode, subdivisionCode(sent, country: country) != nil { return false }
        if let sent = address.postalCode, asciiPostalCode(sent) != nil { return false }
        return true
    }
}
