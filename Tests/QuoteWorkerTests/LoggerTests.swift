import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import Synchronization
import Testing

@Suite("Structured logs")
struct LoggerTests {
    static func lines(minimum: Logger.Level, _ body: (Logger) -> Void) -> [String] {
        let written = Mutex<[String]>([])
        let logger = Logger(minimum: minimum, clock: ManualClock(Date(timeIntervalSince1970: 1_791_633_600.123)),
                            resource: LogResource(serviceVersion: "1.4.0", hostName: "worker-7")) { line in
            written.withLock { $0.append(line) }
        }
        body(logger)
        return written.withLock { $0 }
    }

    @Test("one JSON object a line, OpenTelemetry's names: time, severity, body, resource, then the attributes sorted, numbers unquoted")
    func lineShape() throws {
        let lines = Self.lines(minimum: .info) { log in
            log.warning("produce refused; \"will\" retry\n", ["topic": "shipping.quote-replies", "code": .text("a\\b\u{1}"), "partition": .int(3)])
        }
        #expect(lines == [#"{"timestamp":"2026-10-10T12:00:00.123Z","severity_text":"WARN","severity_number":13,"#
            + #""body":"produce refused; \"will\" retry\n","service.name":"shipquote","service.version":"1.4.0","host.name":"worker-7","#
            + #""code":"a\\b\u0001","partition":3,"topic":"shipping.quote-replies"}"#])
        #expect(try JSONReader().read(lines[0]).isNull == false)
    }

    @Test("severities by OpenTelemetry's short names and the first number of each range")
    func severities() {
        let lines = Self.lines(minimum: .debug) { log in
            log.debug("d"); log.info("i"); log.warning("w"); log.error("e")
        }
        #expect(lines.map { $0.split(separator: ",")[1...2].joined(separator: ",") }
                == [#""severity_text":"DEBUG","severity_number":5"#, #""severity_text":"INFO","severity_number":9"#,
                    #""severity_text":"WARN","severity_number":13"#, #""severity_text":"ERROR","severity_number":17"#])
    }

    @Test("a field without a value is left out, never an empty string: attributes, version, host")
    func noEmptyFields() {
        let written = Mutex<[String]>([])
        let logger = Logger(minimum: .info, clock: ManualClock(Date(timeIntervalSince1970: 0)), resource: LogResource(serviceVersion: "", hostName: nil)) {
            line in written.withLock { $0.append(line) }
        }
        logger.info("event rejected", ["session_id": "", "field": .text(""), "error_code": "not_json"])
        #expect(written.withLock { $0 } == [#"{"timestamp":"1970-01-01T00:00:00.000Z","severity_text":"INFO","severity_number":9,"#
                                            + #""body":"event rejected","service.name":"shipquote","error_code":"not_json"}"#])
    }

    @Test("an event's trace: trace_id, span_id and trace_flags from its traceparent")
    func traceFields() throws {
        let trace = try #require(TraceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"))
        let lines = Self.lines(minimum: .info) { log in log.info("replied", ["session_id": "s-1"], trace: trace) }
        #expect(lines == [#"{"timestamp":"2026-10-10T12:00:00.123Z","severity_text":"INFO","severity_number":9,"body":"replied","#
            + #""service.name":"shipquote","service.version":"1.4.0","host.name":"worker-7","#
            + #""trace_id":"0af7651916cd43dd8448eb211c80319c","span_id":"b7ad6b7169203331","trace_flags":"01","session_id":"s-1"}"#])
    }

    @Test("a broker failure is one line: librdkafka's FAIL log is left to the error callback's line, which has the code")
    func brokerFailureOnce() {
        let text = "127.0.0.1:39201/1: Connect to ipv4#127.0.0.1:39201 failed: Connection refused (after 0ms in state CONNECT)"
        let lines = Self.lines(minimum: .debug) { log in
            // What librdkafka does for one failed connection: a log line (facility FAIL) and an error op.
            log.kafkaLogSink(KafkaLogRecord(level: 3, facility: "FAIL", message: text, client: "rdkafka#producer-1"))
            log.kafkaClientError(KafkaError(code: -195, name: "_TRANSPORT", message: text))
            // Other librdkafka lines still come through.
            log.kafkaLogSink(KafkaLogRecord(level: 4, facility: "MAXPOLL", message: "max.poll.interval.ms exceeded", client: "c"))
        }
        #expect(lines.count == 2)
        #expect(lines[0].contains(#""body":"kafka client error""#) && lines[0].contains(#""code":"_TRANSPORT""#) && lines[0].contains(text))
        #expect(lines[1].contains(#""facility":"MAXPOLL""#))
    }

    @Test("below the minimum level nothing is written, and debug fields are not even built")
    func levels() {
        let built = Mutex(0)
        func fields() -> [String: LogValue] { built.withLock { $0 += 1 }; return ["session_id": "s"] }
        let lines = Self.lines(minimum: .info) { log in
            log.debug("dropped", fields())
            log.info("kept")
        }
        #expect(lines.count == 1)
        #expect(built.withLock { $0 } == 0)
    }
}
