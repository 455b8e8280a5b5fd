import Foundation
import QuoteContract
import ShippingRules

/// Structured logs: one JSON object a line on stderr, named after the OpenTelemetry log data model
/// (https://opentelemetry.io/docs/specs/otel/logs/data-model/), flattened into one object:
///
/// - `timestamp` (RFC 3339, UTC, milliseconds), `severity_text` (`DEBUG`, `INFO`, `WARN`, `ERROR`:
///   the model's short names) and `severity_number` (5, 9, 13, 17), `body` (the message);
/// - the resource, by the semantic conventions' names: `service.name`, `service.version`, `host.name`;
/// - `trace_id`, `span_id`, `trace_flags` (the names OpenTelemetry gives them outside OTLP) on lines
///   about an event that carried a valid W3C `traceparent`: its trace and the span that sent it;
/// - the attributes, by their own names, sorted.
///
/// A field without a value is left out, never written as an empty string. Attributes are chosen by
/// the caller from identifiers only (session ids, event ids, partitions, codes): never an address or a cart.
public struct Logger: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case debug = 0, info, warning, error
        /// OpenTelemetry's short severity names.
        var severityText: String { ["DEBUG", "INFO", "WARN", "ERROR"][rawValue] }
        /// The first number of OpenTelemetry's range for the severity (DEBUG 5-8, INFO 9-12, WARN 13-16, ERROR 17-20).
        var severityNumber: Int64 { [5, 9, 13, 17][rawValue] }
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

    /// The names every line starts with; an attribute must not reuse one.
    static let reservedNames: Set<String> = ["timestamp", "severity_text", "severity_number", "body", "service.name",
                                             "service.version", "host.name", "trace_id", "span_id", "trace_flags"]

    public let minimum: Level
    public let resource: LogResource
    private let write: @Sendable (String) -> Void
    private let clock: any Clock

    public init(minimum: Level = .info, clock: any Clock = SystemClock(), resource: LogResource = .current,
                write: @escaping @Sendable (String) -> Void = Logger.standardError) {
        self.minimum = minimum
        self.clock = clock
        self.resource = resource
        self.write = write
    }

    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A logger that writes nothing.
    public static let silent = Logger(minimum: .error) { _ in }

    public func log(_ level: Level, _ message: String, _ fields: [String: LogValue] = [:], trace: TraceContext? = nil) {
        guard level >= minimum else { return }
        // The contract's JSON writer, so a log line escapes text exactly as a reply does.
        var line = JSONWriter(capacity: 256)
        line.beginObject()
        line.field("timestamp", RFC3339.format(clock.now()))
        line.field("severity_text", level.severityText)
        line.key(text: "severity_number")
        line.integer(level.severityNumber)
        if !message.isEmpty { line.field("body", message) }
        line.field("service.name", resource.serviceName)
        if let version = resource.serviceVersion { line.field("service.version", version) }
        if let host = resource.hostName { line.field("host.name", host) }
        if let trace {
            line.field("trace_id", trace.traceID)
            line.field("span_id", trace.spanIDText)
            line.field("trace_flags", trace.flagsText)
        }
        for key in fields.keys.sorted() {
            assert(!Self.reservedNames.contains(key), "log attribute \(key) reuses a name of the line itself")
            switch fields[key]! {
            case .text(let text):
                guard !text.isEmpty else { continue }
                line.key(text: key)
                line.string(text)
            case .number(let number):
                line.key(text: key)
                line.integer(number)
            }
        }
        line.endObject()
        write(String(decoding: line.bytes, as: UTF8.self))
    }

    /// The fields are built only when debug lines are written: the worker logs one per event.
    public func debug(_ message: String, _ fields: @autoclosure () -> [String: LogValue] = [:], trace: TraceContext? = nil) {
        guard Level.debug >= minimum else { return }
        log(.debug, message, fields(), trace: trace)
    }
    public func info(_ message: String, _ fields: [String: LogValue] = [:], trace: TraceContext? = nil) {
        log(.info, message, fields, trace: trace)
    }
    public func warning(_ message: String, _ fields: [String: LogValue] = [:], trace: TraceContext? = nil) {
        log(.warning, message, fields, trace: trace)
    }
    public func error(_ message: String, _ fields: [String: LogValue] = [:], trace: TraceContext? = nil) {
        log(.error, message, fields, trace: trace)
    }
}

/// Who writes the lines: OpenTelemetry's resource attributes `service.name`, `service.version`
/// (`BuildInfo.current`; left out until the executable sets it) and `host.name`.
public struct LogResource: Sendable, Equatable {
    public var serviceName: String
    public var serviceVersion: String?
    public var hostName: String?

    public init(serviceName: String = "shipquote", serviceVersion: String? = nil, hostName: String? = nil) {
        self.serviceName = serviceName
        self.serviceVersion = serviceVersion.flatMap { $0.isEmpty ? nil : $0 }
        self.hostName = hostName.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// This process: the build's version and the machine's host name (in a pod, the pod's name).
    public static var current: LogResource {
        LogResource(serviceVersion: BuildInfo.current.version, hostName: hostName)
    }

    private static let hostName: String? = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        // The name ends at its terminating NUL (the buffer is zeroed, and one byte is never written).
        let length = buffer.firstIndex(of: 0) ?? buffer.count
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}

/// A log field's value: text or a number, nothing structured (so no cart can slip in).
public enum LogValue: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case text(String)
    case number(Int64)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .number(value) }
    public static func int<T: BinaryInteger>(_ v: T) -> LogValue { .number(Int64(v)) }
}
