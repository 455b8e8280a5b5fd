import Foundation
import Testing

/// `shipquote healthcheck` against a real `shipquote run` endpoint: what Docker's HEALTHCHECK and
/// compose's healthcheck run in the image, which has no curl.
@Suite struct HealthcheckCommandTests {
    /// A worker with no broker to reach (127.0.0.1:1, closed): its loop and endpoint are up, so
    /// /healthz answers 200, and it can never join the group, so /readyz answers 503 for as long
    /// as it waits for the input topic's metadata (10 s). Once it is stopped, nothing listens.
    @Test func exitsZeroOn200AndOneOn503OrNothingListening() throws {
        let (worker, _, err) = try Binary.start(["run", "--rules", Binary.exampleRules, "--bootstrap-servers", "127.0.0.1:1",
                                                "--metrics-listen", "127.0.0.1:0", "--log-level", "info"])
        defer { Binary.stop(worker) }
        let port = try #require(Self.listenPort(in: err, timeout: 20), "the worker never said where it listens")

        let healthy = try Binary.run(["healthcheck", "--url", "http://127.0.0.1:\(port)/healthz", "--timeout", "3"], timeout: 10)
        #expect(healthy.status == 0, "\(healthy.stderr)")
        #expect(healthy.stdout.contains("answered 200"))

        let localhost = try Binary.run(["healthcheck", "--url", "http://localhost:\(port)/healthz"], timeout: 10)
        #expect(localhost.status == 0, "\(localhost.stderr)")

        let notReady = try Binary.run(["healthcheck", "--url", "http://127.0.0.1:\(port)/readyz", "--timeout", "3"], timeout: 10)
        #expect(notReady.status == 1)
        #expect(notReady.stderr.contains("answered 503") && notReady.stderr.contains("\"group_joined\":false"), "\(notReady.stderr)")

        let unknownPath = try Binary.run(["healthcheck", "--url", "http://127.0.0.1:\(port)/nope"], timeout: 10)
        #expect(unknownPath.status == 1 && unknownPath.stderr.contains("answered 404"), "\(unknownPath.stderr)")

        // Killed rather than stopped: without a broker the worker would first finish its 10 s metadata wait.
        kill(worker.processIdentifier, SIGKILL)
        worker.waitUntilExit()
        let gone = try Binary.run(["healthcheck", "--url", "http://127.0.0.1:\(port)/healthz", "--timeout", "2"], timeout: 10)
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("connect to 127.0.0.1:\(port)"), "\(gone.stderr)")
    }

    /// Only the container's own loopback, and a bad flag is "unhealthy" (1), never Docker's reserved 2.
    @Test func refusesOtherHostsAndBadFlagsWithExitOne() throws {
        for arguments in [["--url", "http://worker-1:9464/healthz"], ["--url", "https://127.0.0.1:9464/healthz"],
                          ["--timeout", "0"], ["--timeout", "soon"], ["--no-such-flag"]] {
            let result = try Binary.run(["healthcheck"] + arguments, timeout: 10)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("unhealthy"), "\(arguments)")
        }
        let help = try Binary.run(["healthcheck", "--help"], timeout: 10)
        #expect(help.status == 0 && help.stdout.contains("usage: shipquote healthcheck"))
    }

    /// The port from the worker's "serving /metrics, /healthz and /readyz" log line (stderr).
    static func listenPort(in pipe: Pipe, timeout: TimeInterval) -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        while Date() < deadline {
            guard Binary.readable(pipe, before: deadline) else { return nil }
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }   // the worker ended
            text += String(decoding: chunk, as: UTF8.self)
            for line in text.split(separator: "\n") where line.contains("serving /metrics") {
                guard let range = line.range(of: "\"listen\":\"127.0.0.1:") else { continue }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }
        }
        return nil
    }
}
