import Foundation
import Kafka
import QuoteContract
@testable import QuoteBench
import Testing

/// The pure parts of `bench --process`: the workers' command lines, what their logs and /metrics
/// tell, and CPU time from /proc/<pid>/stat.
@Suite struct ProcessWorkersTests {
    @Test func aWorkerProcessGetsThePhasesTopicsGroupRulesBatchEveryKafkaSettingAndStopsWithTheBench() {
        let topics = Topics(addressChanged: "b.in", quoteReplies: "b.out", deadLetters: "b.dlq", quoteState: "b.state")
        let kafka = KafkaConfiguration(["bootstrap.servers": "127.0.0.1:9", "fetch.wait.max.ms": "1", "session.timeout.ms": "6000",
                                        "group.id": "ignored"])
        #expect(WorkerCommandLine.shipquote(kafka: kafka, topics: topics, group: "g", rules: "/r.yaml", maxBatch: 7) == [
            "run", "--bootstrap-servers", "127.0.0.1:9", "--group", "g", "--rules", "/r.yaml", "--input-topic", "b.in",
            "--reply-topic", "b.out", "--dlq-topic", "b.dlq", "--state-topic", "b.state", "--max-batch", "7",
            "--log-level", "info", "--statistics-interval", "0", "--metrics-listen", "127.0.0.1:0", "--exit-with-parent",
            "-X", "fetch.wait.max.ms=1", "-X", "session.timeout.ms=6000",
        ])
        #expect(WorkerCommandLine.echo(kafka: kafka, inputTopic: "b.in", replyTopic: "b.out", group: "e", maxBatch: 7) == [
            "bench", "echo-worker", "--bootstrap-servers", "127.0.0.1:9", "--group", "e", "--input-topic", "b.in",
            "--reply-topic", "b.out", "--max-batch", "7", "--exit-with-parent", "-X", "fetch.wait.max.ms=1", "-X", "session.timeout.ms=6000",
        ])
    }

    @Test func aWrappedWorkerIsTheWrappersProgramWithItsWordsThenTheBinaryAndTheWorkersArguments() {
        let plain = WorkerCommandLine.wrapped([], executable: "/bin/shipquote", arguments: ["run", "--group", "g"])
        #expect(plain.executable == "/bin/shipquote" && plain.arguments == ["run", "--group", "g"])
        let wrapped = WorkerCommandLine.wrapped(["/usr/bin/valgrind", "--tool=callgrind"], executable: "/bin/shipquote",
                                                arguments: ["run", "--group", "g"])
        #expect(wrapped.executable == "/usr/bin/valgrind")
        #expect(wrapped.arguments == ["--tool=callgrind", "/bin/shipquote", "run", "--group", "g"])
    }

    @Test func aWrappersProgramIsFoundAsAShellFindsIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wrap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tool = directory.appendingPathComponent("tracer").path, plain = directory.appendingPathComponent("notes").path
        try "#!/bin/sh\n".write(toFile: tool, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool)
        try "text".write(toFile: plain, atomically: true, encoding: .utf8)
        #expect(WorkerCommandLine.locate("tracer", path: "/nonexistent::\(directory.path)") == tool)
        #expect(WorkerCommandLine.locate(tool, path: nil) == tool)
        #expect(WorkerCommandLine.locate("tracer", path: "/nonexistent") == nil)
        #expect(WorkerCommandLine.locate("notes", path: directory.path) == nil)  // not executable
        #expect(WorkerCommandLine.locate(plain, path: nil) == nil)
        #expect(WorkerCommandLine.locate("tracer", path: nil) == nil)
    }

    @Test func theLogTellsWhichInputPartitionsAWorkerOwnsWhereItServesMetricsAndTheEchosCounts() {
        var log = WorkerLog(inputTopic: "in")
        log.read(#"{"ts":"x","severity_text":"INFO","body":"partitions assigned","partitions":"in[0],in[3],other[1],in[5]"}"#)
        #expect(log.owned == [0, 3, 5])
        log.read(#"{"ts":"x","severity_text":"INFO","body":"partitions revoked","partitions":"in[3],in[5]"}"#)
        #expect(log.owned == [0])
        log.read(#"{"ts":"x","severity_text":"INFO","body":"serving /metrics, /healthz and /readyz","listen":"127.0.0.1:40123"}"#)
        #expect(log.metricsAddress.flatMap(MetricsScrape.port) == 40123)
        log.read(#"{"ts":"x","severity_text":"INFO","body":"echo counts","answered":12,"unreadable":1}"#)
        #expect(log.echoAnswered == 12 && log.echoUnreadable == 1)
        log.read(#"{"ts":"x","severity_text":"ERROR","body":"consumer failed","code":3}"#)
        log.read("not json at all")
        #expect(log.lastError == "consumer failed")
        #expect(log.owned == [0])
    }

    @Test func aWorkersCountsComeFromItsPrometheusText() {
        let text = """
        # HELP shipquote_events_received_total Records fetched.
        # TYPE shipquote_events_received_total counter
        shipquote_events_received_total 10
        shipquote_events_total{outcome="update"} 6
        shipquote_events_total{outcome="keep"} 1
        shipquote_dropped_events_total{reason="superseded"} 2
        shipquote_dropped_events_total{reason="stale"} 0
        shipquote_dead_letters_total 1
        shipquote_end_to_end_seconds_bucket{le="0.005"} 4
        """
        #expect(MetricsScrape.counts(prometheus: text) == ServiceCounts(eventsIn: 10, outcomes: ["update": 6, "keep": 1],
                                                                        drops: ["superseded": 2, "stale": 0], deadLetters: 1, finished: 9))
    }

    @Test func cpuTicksAreUtimePlusStimeCountedFromTheLastParenthesis() {
        // Field 2 may hold spaces and parentheses; utime and stime are fields 14 and 15.
        let stat = "4242 (shipquote (x) y) S 1 4242 4242 0 -1 4194304 1234 0 0 0 250 75 0 0 20 0 9 0 100 1000000 500"
        #expect(ProcessCPU.ticks(stat: stat) == 325)
        #expect(ProcessCPU.ticks(stat: "4242 (short) S 1") == nil)
        // cutime and cstime (fields 16 and 17): the children it has waited for.
        let reaped = "4242 (perf) S 1 4242 4242 0 -1 4194304 1234 0 0 0 250 75 40 12 20 0 9 0 100 1000000 500"
        #expect(ProcessCPU.ticks(stat: reaped) == 325)
        #expect(ProcessCPU.ticksWithReapedChildren(stat: reaped) == 377)
        #expect(ProcessCPU.ticksWithReapedChildren(stat: "4242 (short) S 1 4242 4242 0 -1 4194304 1234 0 0 0 250 75") == nil)
        #expect(ProcessCPU.seconds(pid: getpid()) != nil)
        #expect(ProcessCPU.ownSeconds() > 0)
    }

    @Test func aProcessParentIsField4CountedFromTheLastParenthesisAndEveryProcessBelowOneIsFound() throws {
        #expect(ProcessTree.parent(stat: "4242 (perf (record) x) S 17 4242 4242 0 -1") == 17)
        #expect(ProcessTree.parent(stat: "4242 (short) S") == nil)
        #expect(ProcessTree.parent(stat: "no parenthesis") == nil)
        // A shell that forks its sleep (the `; :` keeps it from exec'ing it): the shell and the sleep
        // are below this process, the sleep below the shell, and nothing is left once they end.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "sleep 30; :"]
        try shell.run()
        let shellPID = shell.processIdentifier
        var sleepers: [Int32] = []
        let deadline = Date().addingTimeInterval(10)
        while sleepers.isEmpty && Date() < deadline {
            sleepers = ProcessTree.descendants(of: shellPID)
            if sleepers.isEmpty { usleep(10_000) }
        }
        #expect(sleepers.count == 1)
        #expect(Set(ProcessTree.descendants(of: getpid())).isSuperset(of: [shellPID] + sleepers))
        // SIGKILL: a SIGTERM can be blocked in a child (it inherits the mask of the thread that started it).
        for pid in sleepers { kill(pid, SIGKILL) }
        kill(shellPID, SIGKILL)
        shell.waitUntilExit()
        #expect(!ProcessTree.descendants(of: getpid()).contains(shellPID))
    }

    @Test func rateListsRunEachRateInTurn() throws {
        #expect(try BenchSettings.rates(flag: "max,1000,5000") == [.max, .fixed(1000), .fixed(5000)])
        #expect(throws: BenchSettingsError("--rate expects max or a positive whole number of events/s, got ")) {
            try BenchSettings.rates(flag: "max,")
        }
        var settings = BenchSettings()
        settings.processes = true
        #expect(throws: BenchSettingsError("--process needs the shipquote executable's path")) { try settings.validate() }
        settings = BenchSettings()
        settings.workerWrapper = ["/usr/bin/strace", "-c"]
        #expect(throws: BenchSettingsError("--worker-wrapper needs --process")) { try settings.validate() }
        settings.processes = true
        settings.executable = "/bin/shipquote"
        #expect(throws: Never.self) { try settings.validate() }
    }
}
