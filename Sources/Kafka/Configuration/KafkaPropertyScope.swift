import CRdKafka
import Foundation

/// The two kinds of librdkafka client.
public enum KafkaClientKind: Sendable {
    case consumer
    case producer
}

/// Which clients a librdkafka property belongs to (librdkafka's `C/P` column: `C`, `P` or `*`).
/// A property of the other client is ignored with a warning, so a configuration shared by a
/// consumer and a producer is scoped before each client is made from it.
public enum KafkaPropertyScope: Sendable, Equatable {
    case consumer
    case producer
    case both

    public func includes(_ client: KafkaClientKind) -> Bool {
        switch (self, client) {
        case (.both, _), (.consumer, .consumer), (.producer, .producer): true
        default: false
        }
    }

    /// The property's scope as the linked librdkafka reports it; nil for a property it does not
    /// know (which client creation then refuses, naming it). Aliases (`linger.ms` for
    /// `queue.buffering.max.ms`) have their own row, with the scope of what they stand for.
    public static func of(_ property: String) -> KafkaPropertyScope? { LibrdkafkaPropertyTable.scopes[property] }

    /// The property an alias stands for (`linger.ms` → `queue.buffering.max.ms`), or the name itself.
    public static func canonicalName(_ property: String) -> String { LibrdkafkaPropertyTable.aliases[property] ?? property }
}

/// librdkafka's own property table, read once from `rd_kafka_conf_properties_show`, so the scopes
/// are those of the library actually linked rather than a copy of its documentation.
enum LibrdkafkaPropertyTable {
    static let scopes: [String: KafkaPropertyScope] = parse(printed)
    static let aliases: [String: String] = parseAliases(printed)
    private static let printed = printedTable()

    /// Alias rows say so in their description: "Alias for `queue.buffering.max.ms`: …".
    static func parseAliases(_ table: String) -> [String: String] {
        var aliases: [String: String] = [:]
        for line in table.split(separator: "\n") {
            let columns = line.split(separator: "|", omittingEmptySubsequences: false)
            guard columns.count >= 6, let marker = columns[5].range(of: "Alias for `") else { continue }
            let rest = columns[5][marker.upperBound...]
            guard let close = rest.firstIndex(of: "`") else { continue }
            aliases[columns[0].trimmingCharacters(in: .whitespaces)] = String(rest[..<close])
        }
        return aliases
    }

    /// Reads rows of the Markdown table librdkafka prints: `name | C/P | range | default | …`.
    static func parse(_ table: String) -> [String: KafkaPropertyScope] {
        var scopes: [String: KafkaPropertyScope] = [:]
        for line in table.split(separator: "\n") {
            let columns = line.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            guard columns.count == 3 else { continue }
            let name = columns[0].trimmingCharacters(in: .whitespaces)
            let scope: KafkaPropertyScope
            switch columns[1].trimmingCharacters(in: .whitespaces) {
            case "C": scope = .consumer
            case "P": scope = .producer
            case "*": scope = .both
            default: continue  // the header and its rule
            }
            scopes[name] = scope
        }
        return scopes
    }

    /// The table as text. The memory stream's buffer belongs to this function: librdkafka writes
    /// through the stream, `fclose` leaves the final buffer and size in the two slots, we free it.
    private static func printedTable() -> String {
        let buffer = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
        let size = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        buffer.initialize(to: nil)
        size.initialize(to: 0)
        defer {
            free(buffer.pointee)
            buffer.deallocate()
            size.deallocate()
        }
        guard let stream = open_memstream(buffer, size) else { return "" }
        rd_kafka_conf_properties_show(stream)
        fclose(stream)
        guard let text = buffer.pointee else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: size.pointee), as: UTF8.self)
    }
}
