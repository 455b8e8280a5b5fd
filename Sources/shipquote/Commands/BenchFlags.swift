import Foundation
import QuoteBench

/// `shipquote bench [e2e]`'s flags, read into the settings QuoteBench runs by.
extension BenchSettings {
    static let help = """
    usage: shipquote bench [e2e] [--workers 1] [--rules examples/rules/us-acme.yaml] [--sessions 1000]
                           [--rate max|N] [--burst-fraction 0.1] [--events 50000] [--duration 60]
                           [--partitions 8] [--max-batch 2000] [--drain-timeout 30] [--bootstrap-servers HOST:PORT]
                           [--compare] [--no-echo] [--json] [--svg FILE] [--no-progress] [-X key=value ...]
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
      at half the echo's saturated rate; it prints the throughput and p99 ratios against their targets.
      A phase stops producing at --events or --duration, whichever comes first.
      Without --bootstrap-servers the embedded broker is started (about 50-70k events/s in all and
      ~5 MiB kept per partition: keep --events × ~500 bytes / --partitions well below that).
      -X applies to every client of the run. Build with -c release before reading the figures.
    """

    /// `--help` prints the help and exits.
    init(flags args: [String]) throws {
        let flags = try Arguments(args, valued: ["--bootstrap-servers", "--workers", "--rules", "--sessions", "--rate",
                                                 "--burst-fraction", "--events", "--duration", "--partitions", "--max-batch",
                                                 "--drain-timeout", "--svg", "-X"],
                                  flags: ["--compare", "--no-echo", "--json", "--no-progress", "--help"])
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
        if let text = flags.value("--rate") { rate = try Rate(flag: text) }
        burstFraction = try Self.number(flags, "--burst-fraction") ?? burstFraction
        duration = try Self.number(flags, "--duration") ?? duration
        drainTimeout = try Self.number(flags, "--drain-timeout") ?? drainTimeout
        compare = flags.has("--compare")
        echo = !flags.has("--no-echo")
        json = flags.has("--json")
        progress = !flags.has("--no-progress")
        svgPath = flags.value("--svg")
        kafkaAssignments = flags.all("-X")
        try validate()
    }

    private static func number(_ flags: Arguments, _ name: String) throws -> Double? {
        guard let text = flags.value(name) else { return nil }
        guard let v = Double(text), v.isFinite else { throw Arguments.UsageError(description: "\(name) expects a number, got \(text)") }
        return v
    }
}
