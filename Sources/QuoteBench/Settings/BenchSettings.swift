import Kafka

/// What `shipquote bench` was asked to measure. The executable fills it from its flags, then
/// calls `validate()`: the rules of what makes a run are here, the spelling of flags there.
public struct BenchSettings: Sendable {
    public enum Rate: Equatable, Sendable, CustomStringConvertible {
        /// As fast as the generator can produce: the system saturates and a backlog forms.
        case max
        /// Events per second on a fixed schedule.
        case fixed(Int)

        /// `max` or a positive whole number of events per second, as `--rate` takes it.
        public init(flag text: String) throws(BenchSettingsError) {
            if text == "max" { self = .max } else if let n = Int(text), n > 0 { self = .fixed(n) } else {
                throw BenchSettingsError("--rate expects max or a positive whole number of events/s, got \(text)")
            }
        }

        public var description: String {
            switch self {
            case .max: "max"
            case .fixed(let n): "\(n)/s"
            }
        }

        /// The rate in a phase's name (and so in its topics' names): `max`, `1000ps`.
        var slug: String {
            switch self {
            case .max: "max"
            case .fixed(let n): "\(n)ps"
            }
        }
    }

    public var bootstrapServers: String?
    public var workers = 1
    public var rulesPath = "examples/rules/us-acme.yaml"
    public var sessions = 1_000
    /// The rates to measure, in order; each runs the echo (unless `--no-echo`), then ShipQuote.
    public var rates: [Rate] = [.max]
    /// The first of `rates` (a run of one rate).
    public var rate: Rate {
        get { rates[0] }
        set { rates = [newValue] }
    }
    /// How many times the echo-then-ShipQuote pair runs at each rate, rounds one after the other
    /// (every rate in round 1, then in round 2, …). Each ratio is then the median of its rounds':
    /// the machine's state drifts between phases, and one pair is at its mercy.
    public var rounds = 1
    public var burstFraction = 0.1
    public var events = 50_000
    /// A phase produces for at most this long, whatever `events` says.
    public var duration: Double = 60
    /// After producing, how long replies may take to arrive before the rest count as missing.
    public var drainTimeout: Double = 30
    public var partitions = 8
    public var maxBatch = 2000
    public var compare = false
    public var echo = true
    public var json = false
    public var svgPath: String?
    /// `-X key=value`: librdkafka properties for every client of the run (generator, workers, echo, reader).
    public var kafkaAssignments: [String] = []
    public var progress = true
    /// `--process`: each worker (ShipQuote and echo) a process of its own, started from `executable`.
    public var processes = false
    /// The `shipquote` binary that worker processes are started from (the running one's path).
    public var executable: String?
    /// `--worker-wrapper`: each worker process is started through this program and its arguments
    /// (a profiler or tracer: `valgrind --tool=callgrind`, `strace -c -f`), the program as an
    /// absolute path. Its figures are the wrapped workers', not the product's.
    public var workerWrapper: [String] = []

    public init() {}

    /// Throws the first thing that makes these settings no run at all.
    public func validate() throws(BenchSettingsError) {
        guard workers > 0, sessions > 0, events > 0, partitions > 0, maxBatch > 0, duration > 0, drainTimeout >= 0 else {
            throw BenchSettingsError("bench: --workers, --sessions, --events, --partitions, --max-batch and --duration must be positive")
        }
        guard (0...1).contains(burstFraction) else { throw BenchSettingsError("--burst-fraction must be between 0 and 1") }
        if compare && !echo { throw BenchSettingsError("--compare needs the echo worker; drop --no-echo") }
        if compare && rates != [.max] { throw BenchSettingsError("--compare chooses its own rates; drop --rate") }
        if rates.isEmpty { throw BenchSettingsError("--rate needs at least one rate") }
        guard (1...Self.maxRounds).contains(rounds) else { throw BenchSettingsError("--rounds must be from 1 to \(Self.maxRounds)") }
        if compare && rounds > 1 { throw BenchSettingsError("--compare runs one round; drop --rounds") }
        if processes && executable == nil { throw BenchSettingsError("--process needs the shipquote executable's path") }
        if !workerWrapper.isEmpty && !processes { throw BenchSettingsError("--worker-wrapper needs --process") }
    }

    /// Rounds are whole phases (tens of seconds each at a fixed rate): more than this is a soak, not a bench.
    public static let maxRounds = 10

    /// The rates as `--rate` takes them: `max,1000,5000`.
    public static func rates(flag text: String) throws(BenchSettingsError) -> [Rate] {
        var rates: [Rate] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) { rates.append(try Rate(flag: String(part))) }
        return rates
    }

    /// The client settings every client of the run starts from (`base`: the embedded broker's
    /// defaults, or only the bootstrap servers of a real one), then `-X`.
    func kafka(startingFrom base: KafkaConfiguration) throws -> KafkaConfiguration {
        var config = base
        try config.apply(assignments: kafkaAssignments)
        return config
    }
}

/// Settings that make no run; the description is what the person is told.
public struct BenchSettingsError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
