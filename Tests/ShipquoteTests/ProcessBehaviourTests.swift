import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Issue 15, process behaviour of `shipquote run`: every stderr line is one JSON object (its own
/// errors included), the exit codes are those README documents (usage 2, configuration 78, runtime
/// failure 1), and `/readyz` answers 503 from the moment SIGTERM arrives.
@Suite struct ProcessBehaviourTests {
    /// The lines of `stderr` that are not one JSON object each.
    static func nonJSONLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] == nil
        }
    }

    static func lastLog(_ stderr: String) -> [String: Any]? {
        stderr.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static let rules = ["--rules", Binary.exampleRules]

    /// What `run` answers when it cannot start: each is a JSON error line with the code it exits with.
    @Test(arguments: [
        (["run", "--frobnicate"], 2, "usage error"),
        (["run", "--bootstrap-servers", "127.0.0.1:9", "--shutdown-grace", "soon"] + rules, 78, "invalid configuration"),
        (["run", "--rules", Binary.exampleRules], 78, "invalid configuration"),  // no bootstrap servers
        (["run", "--bootstrap-servers", "127.0.0.1:9", "--rules", "/nonexistent/rules.yaml"], 78, "invalid configuration: rules"),
        (["run", "--bootstrap-servers", "127.0.0.1:9", "-X", "no.such.property=1"] + rules, 78, "invalid configuration"),
        (["run", "--bootstrap-servers", "127.0.0.1:9", "--metrics-listen", "nowhere"] + rules, 78, "invalid configuration"),
    ])
    func aRunThatCannotStartWritesOneJSONErrorAndItsExitCode(arguments: [String], code: Int32, message: String) throws {
        let result = try Binary.run(arguments, timeout: 60)
        #expect(result.status == code, "\(arguments): \(result.stderr)")
        #expect(Self.nonJSONLines(result.stderr) == [], "\(arguments)")
        let last = try #require(Self.lastLog(result.stderr), "\(arguments): \(result.stderr)")
        #expect(last["severity_text"] as? String == "ERROR")
        #expect(last["body"] as? String == message)
        #expect(last["exit_code"] as? Int == Int(code))
        #expect((last["detail"] as? String)?.isEmpty == false)
    }

    /// A broker that cannot be reached is a runtime failure (exit 1), reported as JSON like the rest.
    @Test func anUnreachableBrokerIsARuntimeFailure() throws {
        let result = try Binary.run(["run", "--bootstrap-servers", "127.0.0.1:1"] + Self.rules, timeout: 120)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(Self.nonJSONLines(result.stderr) == [])
        let last = try #require(Self.lastLog(result.stderr), "\(result.stderr)")
        #expect(last["body"] as? String == "worker failed")
        #expect(last["exit_code"] as? Int == 1)
    }

    /// `--create-topics` with no broker: the admin client's librdkafka lines are JSON too, and the
    /// time-out is a runtime failure (about 30 s: the admin request's own time limit).
    @Test func topicsThatCannotBeCreatedAreARuntimeFailureInJSON() throws {
        let result = try Binary.run(["run", "--bootstrap-servers", "127.0.0.1:1", "--create-topics"] + Self.rules, timeout: 120)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\"body\":\"librdkafka\""), "the admin client's connection errors are logged")
        #expect(Self.nonJSONLines(result.stderr) == [])
        #expect(Self.lastLog(result.stderr)?["body"] as? String == "topics could not be created")
    }

    /// Readiness falls in the signal handler, before the loop notices the stop; the whole run,
    /// start to stop, writes nothing to stderr but JSON lines.
    @Test func readinessAnswers503AtOnceAfterSIGTERM() throws {
        let (broker, brokerOut, _) = try Binary.start(["broker", "--partitions", "2"])
        defer { Binary.stop(broker) }
        let bootstrap = try #require(Binary.firstLine(of: brokerOut, timeout: 20))
        let worker = try WorkerProcess(bootstrap: bootstrap, extra: ["--metrics-listen", "127.0.0.1:0"])
        defer { Binary.stop(worker.process) }
        try #require(worker.awaitLog("\"listen\":\"127.0.0.1:", timeout: 60), "\(worker.stderr)")
        let digits = worker.stderr.components(separatedBy: "\"listen\":\"127.0.0.1:").dropFirst().first?.prefix { $0.isNumber }
        let port = try #require(digits.flatMap { UInt16($0) })
        let deadline = Date().addingTimeInterval(60)
        while PlainHTTP.status(port: port, path: "/readyz") != 200 && Date() < deadline { usleep(100_000) }
        try #require(PlainHTTP.status(port: port, path: "/readyz") == 200, "never ready: \(worker.stderr)")

        // Asked on this thread right after the signal: the worker takes over 100 ms to stop, and
        // its readiness must already be down.
        kill(worker.process.processIdentifier, SIGTERM)
        usleep(10_000)
        let afterStop = PlainHTTP.status(port: port, path: "/readyz")
        #expect(afterStop == 503, "readiness still up after SIGTERM")
        #expect(Binary.awaitExit(worker.process, timeout: 30))
        #expect(worker.process.terminationStatus == 0, "\(worker.stderr)")
        #expect(worker.stderr.contains("\"body\":\"worker stopped\""))
        #expect(Self.nonJSONLines(worker.stderr) == [])
    }
}
