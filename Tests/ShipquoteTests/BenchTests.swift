import Foundation
import Testing

/// `shipquote bench` end to end on a tiny load: it runs, answers every session's latest event,
/// publishes no stale reply, and writes JSON and an SVG. No figure is asserted: speed is
/// measured by the command, not by tests.
@Suite struct BenchTests {
    /// Runs a small bench (with `extra` flags) and checks what every run must show; returns its JSON document.
    private func smallBench(_ extra: [String], svg: String) throws -> [String: Any] {
        try smallBenchWithLog(extra, svg: svg).document
    }

    /// The same, with what the bench wrote to stderr.
    private func smallBenchWithLog(_ extra: [String], svg: String) throws -> (document: [String: Any], stderr: String) {
        let result = try Binary.run(["bench", "--events", "600", "--sessions", "50", "--rate", "300", "--partitions", "2",
                                     "--burst-fraction", "0.3", "--rules", Binary.exampleRules, "--json", "--svg", svg] + extra, timeout: 300)
        #expect(result.status == 0, "bench failed: \(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let phases = try #require(document["phases"] as? [[String: Any]])
        #expect(phases.map { $0["system"] as? String } == ["echo", "shipquote"])
        for phase in phases {
            #expect(phase["events_produced"] as? Int == 600)
            #expect(phase["missing_replies"] as? Int == 0)
            #expect(phase["stale_replies"] as? Int == 0)
            #expect((phase["replies"] as? Int ?? 0) > 0)
        }
        let shipquote = phases[1]
        // Bursts make some answers stale: the workers drop them, and every drop is counted.
        let drops = try #require(shipquote["drops"] as? [String: Int])
        let outcomes = try #require(shipquote["outcomes"] as? [String: Int])
        #expect(outcomes.values.reduce(0, +) + drops.values.reduce(0, +) == shipquote["events_received"] as? Int)
        let comparison = try #require(document["comparison"] as? [[String: Any]])
        #expect(comparison.map { $0["measure"] as? String } == ["p50", "p99", "cpu"])
        #expect(phases.allSatisfy { ($0["cpu_seconds_per_1000_answered"] as? Double ?? 0) > 0 })
        return (document, result.stderr)
    }

    @Test func aSmallBenchAnswersEveryLatestEventAndPublishesNoStaleReply() throws {
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: svg) }
        let document = try smallBench([], svg: svg)
        #expect((document["phases"] as? [[String: Any]])?.first?["cpu_scope"] as? String ?? "" == BenchScope.inProcess)
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.hasPrefix("<svg") && picture.contains("shipquote"))
    }

    /// `--rounds 2`: the rate runs twice, each round's phases on topics of their own (names ending
    /// in the round), and every ratio carries both rounds' figures.
    @Test func withRoundsEachRoundRunsItsOwnPhasesAndTheRatiosPairThem() throws {
        let result = try Binary.run(["bench", "--events", "300", "--sessions", "30", "--rate", "300", "--rounds", "2", "--partitions", "2",
                                     "--rules", Binary.exampleRules, "--json", "--no-progress"], timeout: 300)
        #expect(result.status == 0, "bench failed: \(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let phases = try #require(document["phases"] as? [[String: Any]])
        #expect(phases.map { $0["name"] as? String } == ["echo-300ps-r1", "shipquote-300ps-r1", "echo-300ps-r2", "shipquote-300ps-r2"])
        #expect(phases.map { $0["round"] as? Int } == [1, 1, 2, 2])
        #expect(phases.allSatisfy { $0["missing_replies"] as? Int == 0 && $0["stale_replies"] as? Int == 0 })
        #expect((document["settings"] as? [String: Any])?["rounds"] as? Int == 2)
        let comparison = try #require(document["comparison"] as? [[String: Any]])
        #expect(comparison.map { $0["measure"] as? String } == ["p50", "p99", "cpu"])
        #expect(comparison.allSatisfy { ($0["rounds"] as? [[String: Double]])?.count == 2 })
    }

    /// `--process`: the workers are `shipquote run` and `shipquote bench echo-worker` processes,
    /// their CPU read from /proc, and none is left running after the bench. With
    /// `--worker-wrapper`, each is started through the wrapper, which gets the binary and the
    /// worker's arguments. The wrapper here runs the worker as its child, waits for it and takes
    /// SIGTERM itself, as `perf record` does: the worker still gets its SIGTERM, stops with status 0,
    /// and the wrapper ends after it, so nothing is killed; the CPU figures are the worker's (and
    /// the wrapper's), not the wrapper's alone.
    @Test func withProcessTheWorkersAreProcessesOfTheirOwnStartedThroughAnyWrapperAndNoneOutlivesTheBench() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = directory.appendingPathComponent("latency.svg").path
        let wrapper = directory.appendingPathComponent("wrap.sh").path, noted = directory.appendingPathComponent("started.txt").path
        // Like perf, the wrapper takes SIGTERM itself (a trap: the shell runs it once its child has
        // ended), so only the worker's own SIGTERM can end the worker before the bench's bound.
        try "#!/bin/sh\ntrap : TERM\necho \"$1 $2 $3\" >> '\(noted)'\nshift\n\"$@\"\necho \"exit $? $2\" >> '\(noted)'\n"
            .write(toFile: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper)
        let (document, stderr) = try smallBenchWithLog(["--process", "--worker-wrapper", "\(wrapper) --marker"], svg: svg)
        #expect((document["settings"] as? [String: Any])?["processes"] as? Bool == true)
        #expect((document["settings"] as? [String: Any])?["worker_wrapper"] as? [String] == [wrapper, "--marker"])
        let lines = try String(contentsOfFile: noted, encoding: .utf8).split(separator: "\n")
        #expect(lines == ["--marker \(Binary.url.path) bench", "exit 0 bench", "--marker \(Binary.url.path) run", "exit 0 run"])
        #expect(!stderr.contains("killed (SIGKILL)"), "a worker was killed: \(stderr)")
        #expect((document["phases"] as? [[String: Any]])?.first?["cpu_scope"] as? String ?? "" == BenchScope.processes)
        // The shipquote phase's counts come from the worker process's /metrics.
        #expect(((document["phases"] as? [[String: Any]])?.last?["events_received"] as? Int ?? 0) >= 600)
        let left = try Tool.run("/usr/bin/pgrep", ["-f", "\(Binary.url.path) (run|bench echo-worker) .*bench\\."], timeout: 10)
        #expect(left.stdout.isEmpty, "worker processes left running: \(left.stdout)")
    }
}

/// The CPU scopes the report names.
enum BenchScope {
    static let inProcess = "the whole bench process (getrusage): the workers' threads plus the load generator, the reply reader and the embedded broker's thread"
    static let processes = "the worker processes only (utime+stime from /proc/<pid>/stat, summed; with a wrapper, the processes below it too)"
}
