import Foundation

/// librdkafka properties, passed through as `key=value` the way `kcat -X` takes them.
/// Later sources win: defaults, then a properties file, then flags.
public struct KafkaConfiguration: Sendable, Equatable {
    public private(set) var properties: [String: String]

    public init(_ properties: [String: String] = [:]) { self.properties = properties }

    public subscript(key: String) -> String? {
        get { properties[key] }
        set { properties[key] = newValue }
    }

    /// Returns this configuration with `other`'s properties laid over it.
    public func merging(_ other: KafkaConfiguration) -> KafkaConfiguration {
        KafkaConfiguration(properties.merging(other.properties) { _, new in new })
    }

    /// Sets `key` only when nobody chose a value for it.
    /// Sets `key` unless it, or another name of the same librdkafka property (`linger.ms` and
    /// `queue.buffering.max.ms`), is set already: two names of one property would race.
    public mutating func setDefault(_ key: String, _ value: String) {
        if !setsProperty(named: key) { properties[key] = value }
    }

    /// Sets `key`, dropping any value given under another name of the same property (`queue.buffering.max.ms`
    /// for `linger.ms`), which would otherwise race with it.
    public mutating func override(_ key: String, _ value: String) {
        let canonical = KafkaPropertyScope.canonicalName(key)
        for name in properties.keys where KafkaPropertyScope.canonicalName(name) == canonical { properties[name] = nil }
        properties[key] = value
    }

    /// Whether `key` or one of its aliases is set.
    public func setsProperty(named key: String) -> Bool {
        if properties[key] != nil { return true }
        let canonical = KafkaPropertyScope.canonicalName(key)
        return properties.keys.contains { KafkaPropertyScope.canonicalName($0) == canonical }
    }

    /// Reads one `key=value` assignment.
    public static func parseAssignment(_ text: String) throws(KafkaError) -> (key: String, value: String) {
        guard let eq = text.firstIndex(of: "=") else {
            throw .invalidConfiguration("librdkafka property '\(text)': expected key=value")
        }
        let key = text[..<eq].trimmingCharacters(in: .whitespaces)
        let value = String(text[text.index(after: eq)...])
        guard !key.isEmpty else { throw .invalidConfiguration("librdkafka property '\(text)': the key is empty") }
        return (key, value)
    }

    public mutating func apply(assignments: [String]) throws(KafkaError) {
        for assignment in assignments {
            let (key, value) = try Self.parseAssignment(assignment)
            properties[key] = value
        }
    }

    /// Reads a Java-style properties file (the format every Kafka tool takes): `key=value` lines,
    /// blank lines, and comments starting with `#` or `!`.
    public static func load(propertiesFile path: String) throws(KafkaError) -> KafkaConfiguration {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw .invalidConfiguration("properties file \(path): cannot be read (\(error.localizedDescription))")
        }
        var config = KafkaConfiguration()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("!") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                throw .invalidConfiguration("properties file \(path):\(index + 1): expected key=value")
            }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else {
                throw .invalidConfiguration("properties file \(path):\(index + 1): the key is empty")
            }
            config.properties[key] = value
        }
        return config
    }

    /// Whether a property holds a secret that must never be printed or logged.
    public static func isSecret(_ key: String) -> Bool {
        let k = key.lowercased()
        return k.contains("password") || k.contains("secret") || k.hasSuffix(".key.pem")
            || k == "ssl.key.pem" || k == "sasl.oauthbearer.config" || k.contains("credentials")
            || k.hasSuffix("token") || k == "sasl.jaas.config"
    }

    /// The properties sorted by key, secrets replaced by `[redacted]`: safe to print.
    public var redacted: [(key: String, value: String)] {
        properties.keys.sorted().map { key in (key, Self.isSecret(key) ? "[redacted]" : properties[key]!) }
    }
}

extension KafkaConfiguration {
    /// This configuration without the properties that belong only to the other kind of client,
    /// aliases included, so that one shared configuration makes a consumer and a producer without
    /// librdkafka's "will be ignored by this … instance" warnings. A property librdkafka does not
    /// know is kept, so that making the client still fails and names it.
    public func scoped(to client: KafkaClientKind) -> KafkaConfiguration {
        KafkaConfiguration(properties.filter { KafkaPropertyScope.of($0.key)?.includes(client) ?? true })
    }
}
