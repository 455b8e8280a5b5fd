import Benchmarking
import Foundation
import QuoteContract

/// One bad event: the bytes and key to produce, and the DLQ `error-code`s the contract allows for it.
struct HostileEvent: Sendable {
    let name: String
    let key: [UInt8]?
    let bytes: [UInt8]
    let codes: Set<String>
}

/// The hostile corpus: hand-written files in Fixtures/hostile (named `<error-code>--<what>.json`,
/// keyed `h-<what>`, or `someone-else` for a key mismatch) and a seeded generator that grows it.
/// Every event carries a recognisable address and cart so the privacy checks can look for them.
enum HostileEvents {
    /// Recognisable personal data: none of it may ever appear in a log line.
    static let secrets = ["Zyxwvutopolis", "ZZ9 9ZZ", "SecretWidget"]

    static func fixtures() throws -> [HostileEvent] {
        guard let directory = Bundle.module.url(forResource: "Fixtures/hostile", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "Fixtures/hostile is not in the test bundle"])
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { file in
            let stem = String(file.dropLast(".json".count))
            let parts = stem.components(separatedBy: "--")
            let what = parts.count == 2 ? parts[1] : stem
            let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(file)))
            let key = parts[0] == "key_mismatch" ? "someone-else" : "h-\(what)"
            return HostileEvent(name: "fixture \(stem)", key: Array(key.utf8), bytes: bytes, codes: [parts[0]])
        }
    }

    /// `count` bad events, the same ones for the same seed. `largeEvery`: how often a case may be
    /// large (100 KiB strings, 1 MiB + 1 byte); 0 keeps every case small (for the broker, whose
    /// partitions keep only about 5 MiB).
    static func generate(count: Int, seed: UInt64, largeEvery: Int = 200) -> [HostileEvent] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { i in
            let session = "g-\(seed)-\(i)"
            let allowLarge = largeEvery > 0 && i % largeEvery == 0
            return mutation(i, session: session, random: &random, allowLarge: allowLarge)
        }
    }

    // MARK: - Mutations

    private static func mutation(_ i: Int, session: String, random: inout SplitMix64, allowLarge: Bool) -> HostileEvent {
        func make(_ what: String, _ text: String, _ codes: Set<String>, key: String? = nil) -> HostileEvent {
            HostileEvent(name: "generated \(i) \(what)", key: Array((key ?? session).utf8), bytes: Array(text.utf8), codes: codes)
        }
        let kinds = allowLarge ? 20 : 18
        switch Int(random.next() % UInt64(kinds)) {
        case 0:
            let noise = (0..<random.int(1...200)).map { _ in Character(UnicodeScalar(UInt8(random.int(0x21...0x7e)))) }
            return make("not JSON", "<" + String(noise), ["not_json"])
        case 1:
            let full = event(session: session)
            return make("truncated", String(full.prefix(random.int(0...(full.count - 1)))), ["not_json"])
        case 2:
            let depth = random.int(65...10_000)
            return make("nested \(depth)", event(session: session, extra: ",\"x\":" + String(repeating: "[", count: depth)
                        + String(repeating: "]", count: depth)), ["too_deep"])
        case 3:
            let literal = ["1e400", "-1e400", "1E+400", "0.5", "-1", "-0", "0", "9223372036854775808"].randomElement(using: &random)!
            let codes: Set<String> = literal == "9223372036854775808" ? ["over_limit"] : ["invalid_field"]
            return make("sequence \(literal)", event(session: session, sequence: literal), codes)
        case 4:
            let literal = ["NaN", "Infinity", "-Infinity", "+1", ".5", "01", "1.", "0x10", "1e"].randomElement(using: &random)!
            return make("amount \(literal)", event(session: session, value: literal), ["not_json"])
        case 5:
            let decimals = random.int(3...30)
            let value = "\"25." + String(repeating: "0", count: decimals - 1) + "1\""
            return make("amount with \(decimals) decimals", event(session: session, value: value), ["invalid_field"])
        case 6:
            let (field, replaced) = wrongType(session: session, random: &random)
            return make("wrong type for \(field)", replaced, ["invalid_field", "missing_field"])
        case 7:
            let version = ["0", "2", "3", "99", "-1", "1000000"].randomElement(using: &random)!
            return make("version \(version)", event(session: session, version: version), ["unsupported_version"])
        case 8:
            return make("key differs from session_id", event(session: session), ["key_mismatch"], key: session + "-other")
        case 9:
            let other = ["EUR", "JPY", "GBP", "KWD"].randomElement(using: &random)!
            return make("second currency \(other)", event(session: session, itemCurrency: other), ["currency_mismatch"])
        case 10:
            let lines = random.int(101...150)
            let line = item(label: "SecretWidget", quantity: "1", value: "\"1.00\"", currency: "USD")
            return make("\(lines) cart lines", event(session: session, items: Array(repeating: line, count: lines).joined(separator: ",")), ["over_limit"])
        case 11:
            let quantity = ["-1", "-2", "-1000000", "0"].randomElement(using: &random)!
            return make("quantity \(quantity)", event(session: session, quantity: quantity), ["invalid_field"])
        case 12:
            var bytes = Array(event(session: session).utf8)
            let at = bytes.firstRange(of: Array("Zyxwvutopolis".utf8))!.lowerBound + random.int(0...12)
            let bad: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0x80], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80]]
            bytes.insert(contentsOf: bad.randomElement(using: &random)!, at: at)
            return HostileEvent(name: "generated \(i) invalid UTF-8", key: Array(session.utf8), bytes: bytes, codes: ["not_json"])
        case 13:
            let control = Character(UnicodeScalar(UInt8(random.int(0x01...0x1f))))
            return make("raw control character in a label", event(session: session, label: "Secret\(control)Widget"), ["not_json"])
        case 14:
            let escaped = String(format: "\\u%04x", random.int(0x00...0x1f))
            return make("escaped control character in a label", event(session: session, label: "Secret\(escaped)Widget"), ["invalid_field"])
        case 15:
            let duplicate = [",\"sequence\":4", ",\"cart\":{}", ",\"currency\":\"USD\"", ",\"version\":1"].randomElement(using: &random)!
            return make("duplicate key", event(session: session, extra: duplicate), ["not_json"])
        case 16:
            // Missing the fields that make an event addressable, one at a time.
            let field = ["version", "session_id", "sequence", "currency", "cart", "shipping_address", "occurred_at"].randomElement(using: &random)!
            return make("without \(field)", removing(field, from: event(session: session)), ["missing_field"])
        case 17:
            let root = ["[]", "\"text\"", "42", "null", "true", "[{\"version\":1}]"].randomElement(using: &random)!
            return make("root \(root)", root, ["invalid_field"])
        case 18:
            let length = random.int(129...100_000)
            return make("session_id of \(length) characters", event(session: String(repeating: "Z", count: length)), ["invalid_field"],
                        key: String(repeating: "Z", count: length))
        default:
            return oversized(session: session, name: "generated \(i) 1 MiB + 1 byte")
        }
    }

    /// An event one byte over the contract's 1 MiB, padded with the recognisable city.
    static func oversized(session: String, name: String) -> HostileEvent {
        let pad = EventLimits.maxBytes + 1 - event(session: session, extra: ",\"pad\":\"\"").utf8.count
        let text = event(session: session, extra: ",\"pad\":\"" + String(repeating: "Zyxwvutopolis ", count: pad / 14)
                         + String(repeating: "x", count: pad % 14) + "\"")
        return HostileEvent(name: name, key: Array(session.utf8), bytes: Array(text.utf8), codes: ["too_large"])
    }

    private static func wrongType(session: String, random: inout SplitMix64) -> (String, String) {
        let scalars = ["true", "false", "[]", "{}", "[1]", "{\"a\":1}"]
        let fields: [(String, (String) -> String)] = [
            ("version", { event(session: session, version: $0) }),
            ("sequence", { event(session: session, sequence: $0) }),
            ("currency", { event(session: session, currencyLiteral: $0) }),
            ("city", { event(session: session, cityLiteral: $0) }),
            ("label", { event(session: session, labelLiteral: $0) }),
            ("quantity", { event(session: session, quantity: $0) }),
            ("unit_amount.value", { event(session: session, value: $0) }),
            ("items", { event(session: session, itemsLiteral: $0) }),
            ("trigger", { event(session: session, triggerLiteral: $0) }),
            ("occurred_at", { event(session: session, occurredAtLiteral: $0) }),
        ]
        let (name, build) = fields.randomElement(using: &random)!
        var literal = scalars.randomElement(using: &random)!
        // An array of objects is the right type for items; an object is wrong for it.
        if name == "items" && literal.hasPrefix("[") { literal = "\"SecretWidget\"" }
        return (name, build(literal))
    }

    private static func removing(_ field: String, from text: String) -> String {
        guard let start = text.range(of: "\"\(field)\":") else { return text }
        // The value ends at the comma that closes the member at the same depth.
        var depth = 0, inString = false, previous: Character = " "
        var end = start.upperBound
        for index in text[start.upperBound...].indices {
            let c = text[index]
            if inString { if c == "\"" && previous != "\\" { inString = false } }
            else if c == "\"" { inString = true }
            else if c == "{" || c == "[" { depth += 1 }
            else if c == "}" || c == "]" { if depth == 0 { end = index; break }; depth -= 1 }
            else if c == "," && depth == 0 { end = text.index(after: index); break }
            previous = c
        }
        var before = text[..<start.lowerBound]
        // The last member: its comma is the one before it.
        if text[end] == "}" && before.last == "," { before = before.dropLast() }
        return String(before + text[end...])
    }

    // MARK: - The template

    static func item(label: String, quantity: String, value: String, currency: String) -> String {
        "{\"id\":\"sku-1\",\"label\":\"\(label)\",\"quantity\":\(quantity),\"unit_amount\":{\"currency\":\"\(currency)\",\"value\":\(value)},\"weight_grams\":300}"
    }

    /// An event with the recognisable address and cart; each argument replaces one part as it is.
    static func event(session: String, version: String = "1", sequence: String = "3", currencyLiteral: String = "\"USD\"",
                      cityLiteral: String = "\"Zyxwvutopolis\"", label: String = "SecretWidget", labelLiteral: String? = nil,
                      quantity: String = "2", value: String = "\"25.00\"", itemCurrency: String = "USD", items: String? = nil,
                      itemsLiteral: String? = nil, triggerLiteral: String = "\"address_changed\"",
                      occurredAtLiteral: String = "\"2026-10-13T17:00:00Z\"", extra: String = "") -> String {
        var line = item(label: label, quantity: quantity, value: value, currency: itemCurrency)
        if let labelLiteral { line = line.replacingOccurrences(of: "\"label\":\"\(label)\"", with: "\"label\":\(labelLiteral)") }
        let itemsValue = itemsLiteral ?? "[\(items ?? line)]"
        return "{\"version\":\(version),\"event_id\":\"evt-1\",\"session_id\":\"\(session)\",\"sequence\":\(sequence),"
            + "\"merchant\":\"acme\",\"payment_method_type\":\"APPLE_PAY\",\"trigger\":\(triggerLiteral),\"currency\":\(currencyLiteral),"
            + "\"shipping_address\":{\"city\":\(cityLiteral),\"state\":\"CA\",\"postal_code\":\"ZZ9 9ZZ\",\"country_code\":\"US\"},"
            + "\"cart\":{\"items\":\(itemsValue),\"discounts\":[]}\(extra),\"occurred_at\":\(occurredAtLiteral)}"
    }
}

/// The process's resident memory now and at its peak, from /proc/self/status (Linux), in KiB.
enum ResidentMemory {
    static func kibibytes() -> (current: Int, peak: Int) {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    static func mebibytes(_ kib: Int) -> String { String(format: "%.1f MiB", Double(kib) / 1024) }
}
