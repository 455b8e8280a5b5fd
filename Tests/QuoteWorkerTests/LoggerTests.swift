import Foundation
import QuoteContract
import QuoteWorker
import Synchronization
import Testing

@Suite("Structured logs")
struct LoggerTests {
    static func lines(minimum: Logger.Level, _ body: (Logger) -> Void) -> [String] {
        let written = Mutex<[String]>([])
        let logger = Logger(minimum: minimum, clock: ManualClock(Date(timeIntervalSince1970: 1_791_633_600.123))) { line in
            written.withLock { $0.append(line) }
        }
        body(logger)
        return written.withLock { $0 }
    }

    @Test("one JSON object a line: time, level, message, then the fields sorted by name, numbers unquoted")
    func lineShape() throws {
        let lines = Self.lines(minimum: .info) { log in
            log.warning("produce refused; \"will\" retry\n", ["topic": "shipping.quote-replies", "code": .text("a\\b\u{1}"), "partition": .int(3)])
        }
        #expect(lines == [#"{"ts":"2026-10-10T12:00:00.123Z","level":"warning","msg":"produce refused; \"will\" retry\n","#
            + #""code":"a\\b\u0001","partition":3,"topic":"shipping.quote-replies"}"#])
        #expect(try JSONReader().read(lines[0]).isNull == false)
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
