import Foundation

/// A config file: `key=value` lines, blank lines and `#`/`!` comments, the properties format every
/// Kafka tool reads. Keys are settings (`rules=...`) or librdkafka properties (`kafka.sasl.username=...`).
struct ConfigurationFile: Sendable {
    struct Entry: Sendable, Equatable {
        let key: String
        let value: String
        let line: Int
    }

    let path: String
    let entries: [Entry]

    init(path: String, setting: String) throws(ConfigurationError) {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw .unreadableFile(path: path, setting: setting, reason: (error as NSError).localizedDescription)
        }
        try self.init(path: path, text: text)
    }

    init(path: String, text: String) throws(ConfigurationError) {
        self.path = path
        var entries: [Entry] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("!") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                throw .malformedLine(path: path, line: index + 1, reason: "expected key=value")
            }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { throw .malformedLine(path: path, line: index + 1, reason: "the key is empty") }
            entries.append(Entry(key: key, value: line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces),
                                 line: index + 1))
        }
        self.entries = entries
    }
}
