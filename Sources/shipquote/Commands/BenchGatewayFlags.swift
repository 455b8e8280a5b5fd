import Foundation
import QuoteBench

/// `shipquote bench gateway`'s flags.
extension GatewayBenchSettings {
    static let help = """
    usage: shipquote bench gateway [--rate 1000,max] [--requests 10000] [--connections 32] [--duration-limit 30]
                                   [--sessions 1000] [--burst-fraction 0.1] [--workers 1] [--partitions 8]
                                   [--rules examples/rules/us-acme.yaml] [--json] [-X key=value ...]

      HTTP through `shipquote gateway`'s service against the gateway library alone, in one run on the
      embedded broker (127.0.0.1 only). At each --rate (max: saturated, or calls per second) two
      phases make the same --requests calls over --sessions sessions (a --burst-fraction of session
      turns send 2-3 addresses back to back, so earlier calls are superseded, 409):
        kafka  the QuoteGateway library's quote() called directly, --connections callers at once;
        http   POST /v1/sessions/{id}/quote to the HTTP gateway (in this process, an ephemeral port of
               127.0.0.1) on --connections kept-alive HTTP/1.1 connections, one blocking caller each.
      Each phase has topics, --workers ShipQuote workers and a gateway of its own, and a warm-up on
      sessions of its own before the clock starts. A caller makes one call at a time (closed loop);
      at a fixed rate call i is not made before i/rate seconds; no call starts after --duration-limit.
      Prints each phase's calls by status (200, 204, 409, 422, 504, other), superseded calls, calls/s
      and latency (call made → answer), how far callers fell behind schedule, when the ten slowest
      calls were made, then HTTP's added p50/p99/max and ratios to Kafka-only.
      Target (issue 16): at 1,000 calls/s HTTP's p99 adds at most 2 ms to Kafka-only's.
      Exits 1 when a phase failed or a call got no response or another status.
      Build with -c release before reading the figures.
    """

    /// `--help` prints the help and exits.
    init(flags args: [String]) throws {
        let flags = try Arguments(args, valued: ["--rate", "--requests", "--connections", "--duration-limit", "--sessions",
                                                 "--burst-fraction", "--workers", "--partitions", "--rules", "-X"],
                                  flags: ["--json", "--help"])
        if flags.has("--help") { Output.line(Self.help); exit(0) }
        guard flags.positional.isEmpty else {
            throw Arguments.UsageError(description: "bench gateway: unexpected \(flags.positional[0])\n\n\(Self.help)")
        }
        self.init()
        if let text = flags.value("--rate") { rates = try BenchSettings.rates(flag: text) }
        requests = try flags.int("--requests") ?? requests
        connections = try flags.int("--connections") ?? connections
        durationLimit = try BenchSettings.number(flags, "--duration-limit") ?? durationLimit
        sessions = try flags.int("--sessions") ?? sessions
        burstFraction = try BenchSettings.number(flags, "--burst-fraction") ?? burstFraction
        workers = try flags.int("--workers") ?? workers
        partitions = try flags.int("--partitions") ?? partitions
        rulesPath = flags.value("--rules") ?? rulesPath
        json = flags.has("--json")
        kafkaAssignments = flags.all("-X")
        try validate()
    }
}
