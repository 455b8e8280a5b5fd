import Foundation
import QuoteBench

/// `shipquote bench [e2e]`'s flags, read into the settings QuoteBench runs by.
extension BenchSettings {
    static let help = """
    usage: shipquote bench [e2e] [--workers 1] [--rules examples/rules/us-acme.yaml] [--sessions 1000]
                           [--rate max|N[,N...]] [--rounds 1] [--burst-fraction 0.1] [--events 50000] [--duration 60]
                           [--partitions 8] [--max-batch 2000] [--drain-timeout 30] [--bootstrap-servers HOST:PORT]
                           [--compare] [--no-echo] [--process [--worker-wrapper 'CMD ARGS']] [--json] [--svg FILE]
                           [--no-progress] [-X key=value ...]
           shipquote bench takeover [--help]            time for a killed worker's partitions to be answered again
           shipquote bench rules FILE | --generated     quotes per second for a rule set on one thread
           shipquote bench sessions [--count 1000000]   memory per tracked session

      End to end through Kafka: produces address-change events over --sessions sessions (a
      --burst-fraction of session turns send 2-3 addresses back to back, so some answers are stale),
      runs --workers ShipQuote workers in this process, reads the replies with a separate reader,
      and reports events/s, latency percentiles (event produced → reply received), replies, drops by
      reason, missing replies and stale replies wrongly published (must be 0).
      The same load also runs through an echo worker (consume, copy session and sequence into a
      tiny reply, produce, commit) on topics of its own, and ShipQuote's figures are given as ratios
      to it. --compare runs the whole protocol: echo and ShipQuote saturated (--rate max), then both
      at half the echo's saturated rate; it prints the ratios against their targets.
      --rate takes a list (max,1000,5000): echo and ShipQuote run at each rate in turn.
      --rounds N (1-10) runs that whole sequence N times; each ratio is then the median of the N
      rounds' ratios, each round's echo and ShipQuote phases run back to back (the machine drifts
      between phases: one pair can be off by a tenth).
      --process starts every worker (ShipQuote and echo) as a process of its own, from this very
      binary (`shipquote run` with the phase's topics, group, rules and -X settings; `shipquote bench
      echo-worker`), and reports each phase's CPU per 1,000 answered events from the worker
      processes' /proc/<pid>/stat; in-process runs report the whole bench process's CPU (getrusage,
      generator, reader and the embedded broker included). Workers get SIGTERM at the end of a phase
      (a wrapper's worker too, so a wrapper that waits for its worker, such as perf record, ends with
      it) and SIGKILL 15 s later if still running; started with --exit-with-parent, they also stop by
      themselves if the bench dies (a wrapper that forks, such as strace, is the one they watch).
      --worker-wrapper 'CMD ARGS' (with --process) starts each worker process as CMD ARGS <shipquote>
      <its arguments>, to profile or trace the workers as they run: 'valgrind --tool=callgrind
      --separate-threads=yes', 'perf record -g -o /tmp/w.data', 'strace -c -f -o /tmp/w.txt'. CMD is
      looked up on PATH; words are split at spaces. The figures are then the wrapped workers' (a
      profiler slows them; a wrapper's own CPU is counted with its worker's), not the product's.
      Targets (issue 12, ratios to the echo in the same run): saturated events/s ≥ 0.7×; at a fixed
      rate p50 ≤ 1.1× and p99 ≤ 1.3×; CPU per answered event ≤ 3×.
      A phase stops producing at --events or --duration, whichever comes first.
      Without --bootstrap-servers the embedded broker is started (about 50-70k events/s in all and
      ~5 MiB kept per partition: keep --events × ~500 bytes / --partitions well below that).
      -X applies to every client of the run. Build with -c release before reading the figures.
    """

    /// `--help` prints the help and exits.
    init(flags args: [String]) throws {
        let flags = try Arguments(args, valued: ["--bootstrap-servers", "--workers", "--rules", "--sessions", "--rate", "--rounds",
                                                 "--burst-fraction", "--events", "--duration", "--partitions", "--max-batch",
                                                 "--drain-timeout", "--svg", "--worker-wrapper", "-X"],
                                  flags: ["--compare", "--no-echo", "--process", "--json", "--no-progress", "--help"])
        if flags.has("--help") { Output.line(Self.help); exit(0) }
        guard flags.positional.isEmpty else { throw Arguments.UsageError(description: "bench: unexpected \(flags.positional[0])\n\n\(Self.help)") }
        self.init()
        bootstrapServers = flags.value("--bootstrap-servers")
        workers = try flags.int("--workers") ?? workers
        rulesPath = flags.value("--rules") ?? rulesPath
        sessions = try flags.int("--sessions") ?? sessions
        events = try flags.int("--events") ?? events
        partitions = try flags.int("--partitions") ?? partitions
        maxBatch = try flags.int("--max-batch") ?? maxBatch
        if let text = flags.value("--rate") { rates = try Self.rates(flag: text) }
        rounds = try flags.int("--rounds") ?? rounds
        burstFraction = try Self.number(flags, "--burst-fraction") ?? burstFraction
        duration = try Self.number(flags, "--duration") ?? duration
        drainTimeout = try Self.number(flags, "--drain-timeout") ?? drainTimeout
        compare = flags.has("--compare")
        echo = !flags.has("--no-echo")
        json = flags.has("--json")
        progress = !flags.has("--no-progress")
        svgPath = flags.value("--svg")
        kafkaAssignments = flags.all("-X")
        processes = flags.has("--process")
        if processes { executable = BenchCommand.ownExecutable }
        if let text = flags.value("--worker-wrapper") {
            let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let program = words.first else { throw Arguments.UsageError(description: "--worker-wrapper expects a command") }
            guard let located = WorkerCommandLine.locate(program, path: ProcessInfo.processInfo.environment["PATH"]) else {
                throw Arguments.UsageError(description: "--worker-wrapper: \(program) is not an executable file, nor one on PATH")
            }
            workerWrapper = [located] + words.dropFirst()
        }
        try validate()
    }

    static func number(_ flags: Arguments, _ name: String) throws -> Double? {
        guard let text = flags.value(name) else { return nil }
        guard let v = Double(text), v.isFinite else { throw Arguments.UsageError(description: "\(name) expects a number, got \(text)") }
        return v
    }
}

/// `shipquote bench takeover`'s flags.
extension TakeoverSettings {
    static let help = """
    usage: shipquote bench takeover [--workers 3] [--rate 1500] [--sessions 3000] [--events 24000] [--partitions 8]
                                    [--kill-after 0.25] [--burst-fraction 0.1] [--rules examples/rules/us-acme.yaml]
                                    [--drain-timeout 60] [--target 10] [-X fetch.wait.max.ms=5 ...]

      Starts `shipquote broker` (the contract's topics, --partitions each) and --workers `shipquote run`
      processes with the product's group settings (session.timeout.ms 6000, heartbeat 1000,
      max.poll.interval 30000: -X may not change them), produces --events events at --rate over
      --sessions sessions, SIGKILLs the worker owning the most partitions once --kill-after of the
      events are out, and prints, for each partition it owned, the time from the kill to the first
      reply to an event sent after it; the time until every session's latest address is answered;
      and how many older replies followed a newer one of their session (must be 0). Exits 1 when a
      partition took longer than --target seconds, an address went unanswered or an older reply
      followed a newer one. -X defaults to fetch.wait.max.ms=5 (the embedded broker holds empty
      fetches for the whole wait). Traffic stays on 127.0.0.1.
    """

    init(flags args: [String]) throws {
        let flags = try Arguments(args, valued: ["--workers", "--rate", "--sessions", "--events", "--partitions", "--kill-after",
                                                 "--burst-fraction", "--rules", "--drain-timeout", "--target", "-X"],
                                  flags: ["--help"])
        if flags.has("--help") { Output.line(Self.help); exit(0) }
        guard flags.positional.isEmpty else { throw Arguments.UsageError(description: "bench takeover: unexpected \(flags.positional[0])\n\n\(Self.help)") }
        self.init()
        workers = try flags.int("--workers") ?? workers
        rate = try flags.int("--rate") ?? rate
        sessions = try flags.int("--sessions") ?? sessions
        events = try flags.int("--events") ?? events
        partitions = try flags.int("--partitions") ?? partitions
        killAfter = try BenchSettings.number(flags, "--kill-after") ?? killAfter
        burstFraction = try BenchSettings.number(flags, "--burst-fraction") ?? burstFraction
        drainTimeout = try BenchSettings.number(flags, "--drain-timeout") ?? drainTimeout
        target = try BenchSettings.number(flags, "--target") ?? target
        rulesPath = flags.value("--rules") ?? rulesPath
        if !flags.all("-X").isEmpty { kafkaAssignments = flags.all("-X") }
        executable = BenchCommand.ownExecutable
        try validate()
    }
}
