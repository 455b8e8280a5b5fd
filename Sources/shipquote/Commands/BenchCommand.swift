import Foundation
import Kafka
import QuoteBench
import ShippingRules

/// `shipquote bench [e2e]`: end to end through Kafka against an echo baseline;
/// `bench rules FILE|--generated [--quotes N]`: quotes per second on one thread;
/// `bench sessions`: memory per tracked session; `bench stages`: the worker's CPU per event, stage by stage;
/// `bench gateway`: HTTP through the HTTP gateway against the gateway library alone;
/// `bench takeover`: how long a killed worker's partitions go unanswered; `bench echo-worker`: the
/// echo baseline as a process (`bench --process` starts it).
/// Flags and wiring only: the benches are QuoteBench's.
/// Measurements for people, not timed tests: build with `-c release` before reading a figure.
enum BenchCommand {
    static let help = """
    usage: shipquote bench [e2e] [flags]   end to end through Kafka; `shipquote bench --help` for its flags
           shipquote bench gateway [--rate 1000,max] [--requests 10000] [--connections 32] ...   HTTP against Kafka-only
           shipquote bench replay [--events 100000] [--sessions 1000]   a takeover's read of the replay range
           shipquote bench takeover [--workers 3] [--rate 1500] [--events 24000] [--sessions 3000] ...
           shipquote bench sessions [--count 1000000]
           shipquote bench stages [--rules FILE] [--events 200000] [--stage NAME]   read, quote, encode: µs per event
           shipquote bench rules FILE [--quotes N] [--address C/S/P/CITY ...] [--zip-rows 40000]
           shipquote bench rules --generated [--zones 1000] [--methods 50] [--quotes N]
           shipquote bench rules --load   load time of generated files: 40k and 400k postal codes, 30k zones

      Quotes one rule set on one thread and prints quotes per second. FILE is quoted for the
      given addresses (default: a handful in the rules' first currency's country mix); --generated
      builds a stress rule set of 1,000 zones and 50 methods and addresses that fall in it.
      FILE is then quoted again with a generated ZIP rate table of --zip-rows rows (Avalara's
      layout, 40,000 by default, 0 for none) added as one more US tax layer.
      Build with `swift build -c release` first: a debug build is many times slower.
    """

    static func run(_ args: [String]) throws {
        let rest = Array(args.dropFirst())
        switch args.first {
        case "sessions": try sessions(rest)
        case "stages": try stages(rest)
        case "e2e": try endToEnd(rest)
        case "rules": try rules(rest)
        case "takeover": try takeover(rest)
        case "gateway": try gateway(rest)
        case "replay": try replay(rest)
        case "echo-worker": try echoWorker(rest)
        case let first? where !first.hasPrefix("-"): Output.fail("bench: unknown benchmark \(first)\n\n\(help)")
        default: try endToEnd(args)
        }
    }

    /// The running binary, which worker processes are started from.
    static var ownExecutable: String { URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path }

    /// With worker processes: SIGINT or SIGTERM to the bench stops them (SIGTERM, SIGKILL past
    /// `bound` seconds) before the bench exits, so none is left running.
    /// Call it before any thread starts (reading flags starts none).
    private static func stopChildrenOnSignal(bound: Double) {
        ProcessSignals.hold()
        ProcessSignals.handle(stop: { _ in
            WorkerProcesses.stopAll(within: bound)
            exit(130)
        })
    }

    private static func endToEnd(_ args: [String]) throws {
        let settings = try BenchSettings(flags: args)
        if settings.processes { stopChildrenOnSignal(bound: 15) }
        let say: (String) -> Void = { if !settings.json { FileHandle.standardError.write(Data(("bench: " + $0 + "\n").utf8)) } }
        let report = try EndToEndBench.run(settings, embeddedClients: EmbeddedClients.defaults, say: say)
        Output.line(settings.json ? report.json : report.table)
        if let path = settings.svgPath {
            try report.latencyChart.write(toFile: path, atomically: true, encoding: .utf8)
            say("latency histogram written to \(path)")
        }
        // Exit 1 when the contract broke: a stale reply published, or a latest event unanswered.
        if report.contractBroken { exit(1) }
    }

    private static func gateway(_ args: [String]) throws {
        let settings = try GatewayBenchSettings(flags: args)
        let say: (String) -> Void = { if !settings.json { FileHandle.standardError.write(Data(("bench gateway: " + $0 + "\n").utf8)) } }
        let report = try GatewayBench.run(settings, embeddedClients: EmbeddedClients.defaults, say: say)
        Output.line(settings.json ? report.json : report.table)
        if report.anyFailure { exit(1) }
    }

    private static func takeover(_ args: [String]) throws {
        let settings = try TakeoverSettings(flags: args)
        stopChildrenOnSignal(bound: 20)
        let report = try TakeoverBench.run(settings) { FileHandle.standardError.write(Data(("bench takeover: " + $0 + "\n").utf8)) }
        report.lines.forEach(Output.line)
        Output.line((["command: shipquote bench takeover"] + args).joined(separator: " "))
        if !report.passed { exit(1) }
    }

    private static func replay(_ args: [String]) throws {
        let flags = try Arguments(args, valued: ["--events", "--sessions", "--rules"], flags: ["--help"])
        if flags.has("--help") { return Output.line("usage: shipquote bench replay [--events 100000] [--sessions 1000] [--rules FILE]") }
        var settings = ReplayBench.Settings()
        settings.events = try flags.int("--events") ?? settings.events
        settings.sessions = try flags.int("--sessions") ?? settings.sessions
        settings.rulesPath = flags.value("--rules") ?? settings.rulesPath
        guard settings.events > 0, settings.sessions > 0 else { Output.fail("bench replay: --events and --sessions must be positive") }
        try ReplayBench.run(settings, line: Output.line)
    }

    /// `bench echo-worker`: not for people; `bench --process` starts it.
    private static func echoWorker(_ args: [String]) throws {
        ProcessSignals.hold()
        let flags = try Arguments(args, valued: ["--bootstrap-servers", "--group", "--input-topic", "--reply-topic", "--max-batch", "-X"],
                                  flags: ["--exit-with-parent", "--help"])
        if flags.has("--help") {
            return Output.line("usage: shipquote bench echo-worker --bootstrap-servers HOST:PORT --group ID --input-topic NAME --reply-topic NAME [--max-batch 2000] [-X key=value ...] [--exit-with-parent]")
        }
        guard let bootstrap = flags.value("--bootstrap-servers"), let group = flags.value("--group"),
              let input = flags.value("--input-topic"), let reply = flags.value("--reply-topic") else {
            Output.fail("bench echo-worker: --bootstrap-servers, --group, --input-topic and --reply-topic are required")
        }
        var kafka = KafkaConfiguration(["bootstrap.servers": bootstrap, "group.id": group])
        try kafka.apply(assignments: flags.all("-X"))
        let stop = DispatchSemaphore(value: 0)
        ProcessSignals.handle(stop: { _ in stop.signal() })
        if flags.has("--exit-with-parent") { ProcessSignals.stopWithParent(within: 15) {} }
        try EchoWorkerProcess.run(kafka: kafka, inputTopic: input, replyTopic: reply, maxBatch: try flags.int("--max-batch") ?? 2000, until: stop)
    }

    private static func stages(_ args: [String]) throws {
        let flags = try Arguments(args, valued: ["--rules", "--events", "--stage"], flags: ["--help"])
        if flags.has("--help") {
            return Output.line("usage: shipquote bench stages [--rules examples/rules/us-acme.yaml] [--events 200000] [--stage NAME]\n"
                + "  --stage NAME  only the stages whose name starts with NAME (read, scan, decode, quote, encode, worker turn, backlog),\n"
                + "                so that a profiler (valgrind --tool=callgrind, perf) counts that stage alone")
        }
        let count = try flags.int("--events") ?? 200_000
        guard count > 0 else { Output.fail("bench stages: --events must be positive") }
        let only = flags.value("--stage")
        if let only, !StageBench.names(only) {
            Output.fail("bench stages: no stage's name starts with \"\(only)\" (the stages: \(StageBench.stageNames.joined(separator: "; ")))")
        }
        let rules = try RuleLibrary.load(path: flags.value("--rules") ?? "examples/rules/us-acme.yaml")
        StageBench(rules: rules).run(count: count, only: only, line: Output.line)
    }

    private static func sessions(_ args: [String]) throws {
        let flags = try Arguments(args, valued: ["--count", "--partitions"], flags: ["--help"])
        if flags.has("--help") { return Output.line("usage: shipquote bench sessions [--count 1000000] [--partitions 8]") }
        let count = try flags.int("--count") ?? 1_000_000
        let partitions = try flags.int("--partitions") ?? 8
        guard count > 0, partitions > 0 else { Output.fail("bench sessions: --count and --partitions must be positive") }
        SessionMemoryBench.run(count: count, partitions: partitions).forEach(Output.line)
    }

    private static func rules(_ args: [String]) throws {
        let flags = try Arguments(args, valued: ["--quotes", "--address", "--zones", "--methods", "--zip-rows"], flags: ["--generated", "--load", "--help"])
        if flags.has("--help") { Output.line(help); return }
        if flags.has("--load") { return try RulesLoadBench.run(line: Output.line) }
        let quotes = try flags.int("--quotes") ?? 1_000_000
        guard quotes > 0 else { Output.fail("bench: --quotes must be positive") }

        let zipRows = try flags.int("--zip-rows") ?? (flags.has("--generated") ? 0 : RulesBench.defaultZipRows)
        guard zipRows == 0 || (3...99_000).contains(zipRows) else { Output.fail("bench rules: --zip-rows must be 0 (none) or from 3 to 99000") }
        let rules: RuleSet
        var addresses: [PartialAddress]
        if flags.has("--generated") {
            let zones = try flags.int("--zones") ?? 1_000
            let methods = try flags.int("--methods") ?? 50
            rules = try RuleSet.load(yaml: StressRules.yaml(zoneCount: zones, methodCount: methods), fileName: "generated(\(zones) zones, \(methods) methods)")
            addresses = StressRules.addresses()
        } else {
            guard flags.positional.count == 1 else { Output.fail("bench rules: expects one FILE or --generated\n\n\(help)") }
            rules = try RuleSet.load(contentsOfFile: flags.positional[0])
            addresses = RulesBench.defaultAddresses
        }
        let given = flags.all("--address")
        if !given.isEmpty { addresses = given.map(AddressShorthand.parse) }
        RulesBench(rules: rules, addresses: addresses).run(quotes: quotes).forEach(Output.line)
        guard zipRows > 0 else { return }
        Output.line("")
        Output.line("with a \(zipRows)-row ZIP rate table as one more tax layer (zip-table):")
        RulesBench(rules: try RulesBench.addingZipTable(to: rules, rows: zipRows), addresses: addresses).run(quotes: quotes).forEach(Output.line)
    }
}
