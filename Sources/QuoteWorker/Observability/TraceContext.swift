import Kafka
import QuoteContract

/// A W3C trace context: the `traceparent` header (https://www.w3.org/TR/trace-context/#traceparent-header),
/// `version-traceid-parentid-flags` in lower-case hex. The worker records no spans of its own; it
/// puts the event's trace id and span id on the log lines about that event, and answers with a child:
/// the same trace id and flags under a new span id, whose parent is the event's span.
public struct TraceContext: Sendable, Hashable {
    public let traceIDHigh: UInt64
    public let traceIDLow: UInt64
    /// The span that sent the record (W3C's `parent-id`).
    public let spanID: UInt64
    public let flags: UInt8

    public init(traceIDHigh: UInt64, traceIDLow: UInt64, spanID: UInt64, flags: UInt8) {
        self.traceIDHigh = traceIDHigh
        self.traceIDLow = traceIDLow
        self.spanID = spanID
        self.flags = flags
    }

    /// Parses a `traceparent` value; nil when it is not one (wrong length or characters, an all-zero
    /// trace or span id, version `ff`). A version above `00` is read by its first four fields, as the
    /// specification asks.
    public init?(traceparent bytes: some Collection<UInt8>) {
        let b = Array(bytes)
        guard b.count >= 55, b[2] == UInt8(ascii: "-"), b[35] == UInt8(ascii: "-"), b[52] == UInt8(ascii: "-"),
              let version = Self.hex(b[0..<2]), version != 0xff,
              version == 0 ? b.count == 55 : (b.count == 55 || b[55] == UInt8(ascii: "-")),
              let high = Self.hex(b[3..<19]), let low = Self.hex(b[19..<35]), high | low != 0,
              let span = Self.hex(b[36..<52]), span != 0, let flags = Self.hex(b[53..<55])
        else { return nil }
        self.init(traceIDHigh: high, traceIDLow: low, spanID: span, flags: UInt8(flags))
    }

    public init?(_ traceparent: String) { self.init(traceparent: Array(traceparent.utf8)) }

    /// The record's `traceparent` header, when it has a valid one.
    public init?(of message: KafkaMessage) {
        guard let value = message.header(ContractHeader.traceparent) else { return nil }
        self.init(traceparent: value)
    }

    /// 32 hex digits.
    public var traceID: String { Self.hex(traceIDHigh, digits: 16) + Self.hex(traceIDLow, digits: 16) }
    /// 16 hex digits.
    public var spanIDText: String { Self.hex(spanID, digits: 16) }
    /// 2 hex digits (bit 0: sampled).
    public var flagsText: String { Self.hex(UInt64(flags), digits: 2) }
    /// The header value, version `00`.
    public var traceparent: String { "00-\(traceID)-\(spanIDText)-\(flagsText)" }

    /// The context of a span started under this one: same trace and flags, the given span id.
    public func child(spanID: UInt64) -> TraceContext {
        TraceContext(traceIDHigh: traceIDHigh, traceIDLow: traceIDLow, spanID: spanID, flags: flags)
    }

    /// Lower-case hex only: W3C refuses upper case.
    private static func hex(_ digits: ArraySlice<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for c in digits {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(c - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return value
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// New span ids for replies: a SplitMix64 stream, seeded from the system's random source by default
/// (no system call per reply), or from a fixed seed so that a test knows the ids it will see. Never 0
/// (W3C's invalid span id).
public struct SpanIDGenerator: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public static func random() -> SpanIDGenerator {
        var system = SystemRandomNumberGenerator()
        return SpanIDGenerator(seed: system.next())
    }

    public mutating func next() -> UInt64 {
        while true {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            if z != 0 { return z }
        }
    }
}
