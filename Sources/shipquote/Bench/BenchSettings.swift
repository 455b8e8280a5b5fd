import Foundation
import Kafka

/// What `shipquote bench` was asked to measure, from its flags.
struct BenchSettings {
    enum Rate: Equatable, CustomStringConvertible {
        /// As fast as the generator can produce: the system saturates and a backlog forms.
        case max
        /// Events per second on a fixed schedule.
        case fixed(Int)

        var description: String {
            switch self {
            case .max: "max"
            case .fixed(let n): "\(n)/s"
            }
        }
    }

    var bootstrapServers: String?
    var workers = 1
    var rulesPath = "examples/rules/us-acme.yaml"
    var sessions = 1_000
    var rate = Rate.max
    var burstFraction = 0.1
    var events = 50_000
    /// A phase produces for at most this long, whatever `events` says.
    var duration: Double = 60
    /// After producing, how long replies may take to arrive before the rest count as missing.
    var drainTimeout: Double = 30
    var partitions = 8
    var maxBatch = 2000
    var compare = false
    var echo = true
    var json = false
    var svgPath: String?
    /// `-X key=value`: librdkafka properties for every client of the run (generator, workers, echo, reader).
    var kafkaAssignments: [String] = []
    var progress = true

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

    init(_ args: [String]) throws {
        let flags = try Arguments(args, valued: ["--bootstrap-servers", "--workers", "--rules", "--sessions", "--rate",
                                                 "--burst-fraction", "--events", "--duration", "--partitions", "--max-batch",
                                                 "--drain-timeout", "--svg", "-X"],
                                  flags: ["--compare", "--no-echo", "--json", "--no-progress", "--help"])
        if flags.has("--help") { Output.line(Self.help); exit(0) }
        guard flags.positional.isEmpty else { throw Arguments.UsageError(description: "bench: unexpected \(flags.positional[0])\n\n\(Self.help)") }
        bootstrapServers = flags.value("--bootstrap-servers")
        workers = try flags.int("--workers") ?? workers
        rulesPath = flags.value("--rules") ?? rulesPath
        sessions = try flags.int("--sessions") ?? sessions
        events = try flags.int("--events") ?? events
        partitions = try flags.int("--partitions") ?? partitions
        maxBatch = try flags.int("--max-batch") ?? maxBatch
        if let text = flags.value("--rate") {
            if text == "max" { rate = .max } else if let n = Int(text), n > 0 { rate = .fixed(n) } else {
                throw Arguments.UsageError(description: "--rate expects max or a positive whole number of events/s, got \(text)")
            }
        }
        burstFraction = try Self.number(flags, "--burst-fraction") ?? burstFraction
        duration = try Self.number(flags, "--duration") ?? duration
        drainTimeout = try Self.number(flags, "--drain-timeout") ?? drainTimeout
        compare = flags.has("--compare")
        echo = !flags.has("--no-echo")
        json = flags.has("--json")
        progress = !flags.has("--no-progress")
        svgPath = flags.value("--svg")
        kafkaAssignments = flags.all("-X")
        guard workers > 0, sessions > 0, events > 0, partitions > 0, maxBatch > 0, duration > 0, drainTimeout >= 0 else {
            throw Arguments.UsageError(description: "bench: --workers, --sessions, --events, --partitions, --max-batch and --duration must be positive")
        }
        guard (0...1).contains(burstFraction) else { throw Arguments.UsageError(description: "--burst-fraction must be between 0 and 1") }
        if compare && !echo { throw Arguments.UsageError(description: "--compare needs the echo worker; drop --no-echo") }
    }

    private static func number(_ flags: Arguments, _ name: String) throws -> Double? {
        guard let text = flags.value(name) else { return nil }
        guard let v = Double(text), v.isFinite else { throw Arguments.UsageError(description: "\(name) expects a number, got \(text)") }
        return v
    }

    /// The client settings every client of the run starts from: the embedded broker's defaults
    /// (fetch.wait.max.ms=5 and short group timeouts) unless a real broker was named, then `-X`.
    func kafka(bootstrap: String, embedded: Bool) throws -> KafkaConfiguration {
        var config = embedded ? EmbeddedClients.defaults(bootstrap: bootstrap) : KafkaConfiguration(["bootstrap.servers": bootstrap])
        try config.apply(assignments: kafkaAssignments)
        return config
    }
}
