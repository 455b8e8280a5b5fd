import Foundation
import Kafka
@testable import QuoteWorker
import Testing

/// `process_*` (read from /proc/self at scrape time), `shipquote_build_info`, and the whole
/// exposition as the ecosystem's own tools read it.
@Suite struct ProcessMetricsTests {
    /// proc(5)'s stat line of a process whose command name holds a space and a parenthesis.
    static let stat = "4242 (ship quote) (x) S 1 4242 4242 0 -1 4194560 2000 0 0 0 250 130 0 0 20 0 9 0 "
        + "123456 1073741824 20480 18446744073709551615 1 1 0 0 0 0 0 4096 17647 0 0 0 17 1 0 0 0 0 0\n"
    static let limits = """
    Limit                     Soft Limit           Hard Limit           Units
    Max cpu time              unlimited            unlimited            seconds
    Max open files            1024                 524288               files
    Max processes             63704                63704                processes

    """
    static let scale = ProcessMetrics.Scale(ticksPerSecond: 100, pageSize: 4096, bootTime: 1_791_000_000)

    @Test func statAndLimitsGiveTheFiguresClientGolangExports() {
        let reading = ProcessMetrics.parse(stat: Self.stat, scale: Self.scale)
        #expect(reading.cpuSeconds == 3.8)                           // (250 + 130) ticks / 100
        #expect(reading.virtualBytes == 1_073_741_824)
        #expect(reading.residentBytes == 83_886_080)  // 20480 pages of 4096 bytes
        #expect(reading.startTimeSeconds == 1_791_000_000 + 1234.56)   // btime + 123456 ticks / 100
        #expect(ProcessMetrics.maxOpenFiles(limits: Self.limits) == 1024)
        #expect(ProcessMetrics.bootTime(procStat: "cpu  1 2 3\nbtime 1791000000\nprocesses 9\n") == 1_791_000_000)
    }

    @Test func aFakeProcfsIsReadAtScrapeTime() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("procfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("fd"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.stat.write(to: dir.appendingPathComponent("stat"), atomically: true, encoding: .utf8)
        try Self.limits.write(to: dir.appendingPathComponent("limits"), atomically: true, encoding: .utf8)
        for n in 0..<3 { #expect(FileManager.default.createFile(atPath: dir.appendingPathComponent("fd/\(n)").path, contents: nil)) }
        let registry = MetricsRegistry()
        ProcessMetrics.register(in: registry, procfs: dir.path, scale: Self.scale)
        var samples = Scrape.parse(registry.exposition())
        #expect(samples == ["process_cpu_seconds_total": 3.8, "process_resident_memory_bytes": 83_886_080,
                            "process_virtual_memory_bytes": 1_073_741_824, "process_open_fds": 3, "process_max_fds": 1024,
                            "process_start_time_seconds": 1_791_001_234.56])
        // Each scrape reads again; a file gone leaves its series out (the family's HELP and TYPE stay).
        #expect(FileManager.default.createFile(atPath: dir.appendingPathComponent("fd/3").path, contents: nil))
        try FileManager.default.removeItem(at: dir.appendingPathComponent("limits"))
        samples = Scrape.parse(registry.exposition())
        #expect(samples["process_open_fds"] == 4 && samples["process_max_fds"] == nil)
        #expect(registry.exposition().contains("# TYPE process_cpu_seconds_total counter\n"))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat")))
    func thisProcessAsTheWorkerShowsIt() {
        let before = Date().timeIntervalSince1970
        let samples = Scrape.parse(WorkerMetrics().registry.exposition())
        #expect((samples["process_cpu_seconds_total"] ?? 0) > 0)
        #expect((samples["process_resident_memory_bytes"] ?? 0) > 1_048_576)
        #expect((samples["process_virtual_memory_bytes"] ?? 0) >= samples["process_resident_memory_bytes"] ?? .infinity)
        #expect((samples["process_open_fds"] ?? 0) >= 3)
        #expect((samples["process_max_fds"] ?? 0) >= samples["process_open_fds"] ?? .infinity)
        let started = samples["process_start_time_seconds"] ?? 0
        #expect(started <= before && started > before - 24 * 3600, "started \(started), now \(before)")
    }

    @Test func buildInfoNamesVersionRevisionAndTheLibrdkafkaLoaded() {
        #expect(KafkaLibrary.version.split(separator: ".").count >= 3)
        let text = WorkerMetrics().registry.exposition()
        let build = BuildInfo.current
        #expect(text.contains("# TYPE shipquote_build_info gauge\n"))
        #expect(text.contains("shipquote_build_info{version=\"\(build.version ?? "unknown")\",revision=\"\(build.revision ?? "unknown")\","
                              + "librdkafka=\"\(KafkaLibrary.version)\"} 1\n"))
        #expect(BuildInfo(version: "", revision: "abc") == BuildInfo(version: nil, revision: "abc"))
    }

    // MARK: - The ecosystem's checkers

    /// A worker's exposition with every kind of series in it.
    static func fullExposition() throws -> String {
        let metrics = WorkerMetrics()
        metrics.eventReceived(count: 3)
        metrics.finished("update")
        metrics.dropped(.stale)
        metrics.dropped(.unanswerable)
        metrics.deadLettered()
        metrics.observeQuoteDuration(seconds: 0.0004)
        metrics.observeEndToEnd(seconds: 0.02)
        metrics.rulesLoaded(version: "sha256:abc")
        metrics.ingestStatistics(try KafkaStatisticsTests.recorded("consumer-idle"))
        metrics.ingestStatistics(try KafkaStatisticsTests.recorded("producer-busy"))
        return metrics.registry.exposition()
    }

    static func tool(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ executable: String, _ arguments: [String], input: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe(), out = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = out
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    static let pythonHasPrometheusClient: Bool = {
        guard let python = tool("python3") else { return false }
        return (try? run(python, ["-c", "import prometheus_client"], input: ""))?.status == 0
    }()

    /// Debian's `prometheus` package ships promtool; `check metrics` lints names, units, HELP and TYPE.
    @Test(.enabled(if: tool("promtool") != nil, "promtool is not installed (apt-get install prometheus)"))
    func promtoolFindsNothingToSay() throws {
        let result = try Self.run(Self.tool("promtool")!, ["check", "metrics"], input: try Self.fullExposition())
        print("promtool check metrics: exit \(result.status)\(result.output.isEmpty ? ", no findings" : ": \(result.output)")")
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    /// The parser of the Python client (`pip install prometheus-client`), which refuses what the format does not allow.
    @Test(.enabled(if: pythonHasPrometheusClient, "python3 with prometheus_client is not installed (pip install prometheus-client)"))
    func prometheusClientsParserReadsEveryFamily() throws {
        let script = """
        import sys
        from prometheus_client.parser import text_string_to_metric_families
        for f in text_string_to_metric_families(sys.stdin.read()):
            print(f.name, f.type, len(f.samples))
        """
        let result = try Self.run(Self.tool("python3")!, ["-c", script], input: try Self.fullExposition())
        #expect(result.status == 0, "\(result.output)")
        let families = Dictionary(uniqueKeysWithValues: result.output.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            return (String(parts[0]), "\(parts[1]) \(parts[2])")
        })
        print("prometheus_client parser: \(families.count) families")
        // The parser names counters without _total.
        #expect(families["shipquote_events"] == "counter 4")
        #expect(families["shipquote_dropped_events"] == "counter 5")
        #expect(families["shipquote_broker_rtt_seconds"] == "gauge 3")
        #expect(families["shipquote_build_info"] == "gauge 1")
        #expect(families["shipquote_quote_duration_seconds"]?.hasPrefix("histogram") == true)
        #expect(families["process_cpu_seconds"] == "counter 1")
        for name in ["process_resident_memory_bytes", "process_virtual_memory_bytes", "process_open_fds", "process_max_fds",
                     "process_start_time_seconds"] {
            #expect(families[name] == "gauge 1", "\(name)")
        }
    }
}
