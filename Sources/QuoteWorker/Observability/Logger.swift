import Foundation
import QuoteContract
import ShippingRules

/// Structured logs: one JSON object a line on stderr. Fields are chosen by the caller from
/// identifiers only (session ids, event ids, partitions, codes): never an address or a cart.
public struct Logger: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case debug = 0, info, warning, error
        var name: String { ["debug", "info", "warning", "error"][rawValue] }
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        public init?(name: String) {
            switch name.lowercased() {
            case "debug": self = .debug
            case "info": self = .info
            case "warning", "warn": self = .warning
            case "error": self = .error
            default: return nil
            }
        }
    }

    public let minimum: Level
    private let write: @Sendable (String) -> Void
    private let clock: any Clock

    public init(minimum: Level = .info, clock: any Clock = SystemClock(),
                write: @escaping @Sendable (String) -> Void = Logger.standardError) {
        self.minimum = minimum
        self.clock = clock
        self.write = write
    }

    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A logger that writes nothing.
    public static let silent = Logger(minimum: .error) { _ in }

    public func log(_ level: Level, _ message: String, _ fields: [String: LogValue] = [:]) {
        guard level >= minimum else { return }
        // The contract's JSON writer, so a log line escapes text exactly as a reply does.
        var line = JSONWriter(capacity: 160)
        line.beginObject()
        line.field("ts", RFC3339.format(clock.now()))
        line.field("level", level.name)
        line.field("msg", message)
        for key in fields.keys.sorted() {
            line.key(text: key)
            switch fields[key]! {
            case .text(let text): line.string(text)
            case .number(let number): line.integer(number)
            }
        }
        line.endObject()
        write(String(decoding: line.bytes, as: UTF8.self))
    }

    /// The fields are built only when debug lines are written: the worker logs one per event.
    public func debug(_ message: String, _ fields: @autoclosure () -> [String: LogValue] = [:]) {
        guard Level.debug >= minimum else { return }
        log(.debug, message, fields())
    }
    public func info(_ message: String, _ fields: [String: LogValue] = [:]) { log(.info, message, fields) }
    public func warning(_ message: String, _ fields: [String: LogValue] = [:]) { log(.warning, message, fields) }
    public func error(_ message: String, _ fields: [String: LogValue] = [:]) { log(.error, message, fields) }
}

/// A log field's value: text or a number, nothing structured (so no cart can slip in).
public enum LogValue: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case text(String)
    case number(Int64)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .number(value) }
    public static func int<T: BinaryInteger>(_ v: T) -> LogValue { .number(Int64(v)) }
}
