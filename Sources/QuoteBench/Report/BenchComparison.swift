/// ShipQuote's figures as ratios to the echo's in the same run, against issue 12's targets: at
/// saturation at least 0.7× the echo's events/s; at a fixed rate (1,000 and 5,000 events/s in the
/// issue) a p50 within 1.1× and a p99 within 1.3× the echo's; at every rate at most 3× the echo's
/// CPU per answered event.
struct BenchComparison {
    static let throughputTarget = 0.7
    static let p50Target = 1.1
    static let p99Target = 1.3
    static let cpuTarget = 3.0

    struct Ratio {
        enum Kind: String { case throughput, p50, p99, cpu }
        let kind: Kind
        let rate: String
        /// Each round's figures (`--rounds`), in round order: ShipQuote's and the echo's.
        let rounds: [Pair]
        /// CPU only: each round's CPU per 1,000 events produced, which conflation does not skew.
        var perEvent: [Pair]? = nil

        struct Pair {
            let shipquote: Double
            let echo: Double
            var value: Double { echo > 0 ? shipquote / echo : 0 }
        }

        init(kind: Kind, rate: String, rounds: [Pair], perEvent: [Pair]? = nil) {
            self.kind = kind
            self.rate = rate
            self.rounds = rounds
            self.perEvent = perEvent
        }

        /// The median of the rounds' ratios (of the middle two for an even count): each ratio
        /// pairs phases run back to back, so the machine's drift between rounds stays out of it.
        var value: Double { Self.median(rounds.map(\.value)) }
        /// The median of ShipQuote's figures, and of the echo's, over the rounds (one round: its figures).
        var shipquote: Double { Self.median(rounds.map(\.shipquote)) }
        var echo: Double { Self.median(rounds.map(\.echo)) }

        /// Throughput must reach its target; the others must stay within theirs.
        var target: Double {
            switch kind {
            case .throughput: BenchComparison.throughputTarget
            case .p50: BenchComparison.p50Target
            case .p99: BenchComparison.p99Target
            case .cpu: BenchComparison.cpuTarget
            }
        }
        var met: Bool { kind == .throughput ? value >= target : value <= target }

        static func median(_ values: [Double]) -> Double {
            guard !values.isEmpty else { return 0 }
            let sorted = values.sorted(), middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        }
    }

    /// In the order of the phases' rates: throughput at `max`, p50 and p99 at each fixed rate
    /// (at `max` only when no rate is fixed: there both are queueing), CPU at every rate. With
    /// several rounds, each ratio pairs the echo and ShipQuote phases of one round.
    let ratios: [Ratio]

    init(_ phases: [PhaseResult]) {
        var rates: [String] = []
        for p in phases where !rates.contains(p.rate) { rates.append(p.rate) }
        let anyFixed = rates.contains { $0 != "max" }
        var ratios: [Ratio] = []
        for rate in rates {
            var rounds: [(q: PhaseResult, e: PhaseResult)] = []
            for round in Set(phases.map(\.round)).sorted() {
                let chosen = phases.filter { $0.rate == rate && $0.round == round }
                guard let q = chosen.last(where: { $0.system == "shipquote" }), let e = chosen.last(where: { $0.system == "echo" }) else { continue }
                rounds.append((q, e))
            }
            guard !rounds.isEmpty else { continue }
            func pairs(_ figure: (PhaseResult) -> Double) -> [Ratio.Pair] { rounds.map { Ratio.Pair(shipquote: figure($0.q), echo: figure($0.e)) } }
            if rate == "max" { ratios.append(Ratio(kind: .throughput, rate: rate, rounds: pairs(\.eventsPerSecond))) }
            if rate != "max" || !anyFixed {
                ratios.append(Ratio(kind: .p50, rate: rate, rounds: pairs(\.latency.p50)))
                ratios.append(Ratio(kind: .p99, rate: rate, rounds: pairs(\.latency.p99)))
            }
            let cpu = rounds.compactMap { r in r.q.cpuPerThousandAnswered.flatMap { q in r.e.cpuPerThousandAnswered.map { Ratio.Pair(shipquote: q, echo: $0) } } }
            if cpu.count == rounds.count {
                let perEvent = rounds.compactMap { r in r.q.cpuPerThousandEvents.flatMap { q in r.e.cpuPerThousandEvents.map { Ratio.Pair(shipquote: q, echo: $0) } } }
                ratios.append(Ratio(kind: .cpu, rate: rate, rounds: cpu, perEvent: perEvent.count == rounds.count ? perEvent : nil))
            }
        }
        self.ratios = ratios
    }

    func ratio(_ kind: Ratio.Kind, at rate: String) -> Ratio? { ratios.first { $0.kind == kind && $0.rate == rate } }

    var json: [[String: Any]] {
        ratios.map { r in
            var out: [String: Any] = ["measure": r.kind.rawValue, "rate": r.rate, "shipquote": r.shipquote, "echo": r.echo, "ratio": r.value,
                                      r.kind == .throughput ? "target_min" : "target_max": r.target, "meets_target": r.met]
            if r.rounds.count > 1 {
                out["rounds"] = r.rounds.map { ["shipquote": $0.shipquote, "echo": $0.echo, "ratio": $0.value] }
            }
            return out
        }
    }

    /// One line per ratio, for the table.
    var lines: [String] {
        ratios.map { r in
            let figures: String
            if r.rounds.count == 1 {
                figures = Self.figures(r.kind, r.rounds[0]) + (r.perEvent.map { Self.perEventText($0[0]) } ?? "")
            } else {
                let each = r.rounds.map { String(format: "%.2f× ", $0.value) + "(" + Self.figures(r.kind, $0) + ")" }
                figures = "median of \(r.rounds.count) rounds: " + each.joined(separator: ", ")
                    + (r.perEvent.map { String(format: "; per 1,000 events produced, median %.2f×", Ratio.median($0.map(\.value))) } ?? "")
            }
            let what = switch r.kind {
            case .throughput: "throughput"
            case .p50, .p99: r.kind.rawValue
            case .cpu: "CPU per 1,000 answered"
            }
            let note = r.rate == "max" && (r.kind == .p50 || r.kind == .p99) ? ", meant for a fixed rate" : ""
            return "\(what) ratio (shipquote/echo, at \(r.rate)): " + String(format: "%.2f×", r.value)
                + "  (\(figures); target \(r.kind == .throughput ? "≥" : "≤") \(String(format: "%.1f", r.target))×\(note): \(r.met ? "met" : "NOT met"))"
        }
    }

    private static func figures(_ kind: Ratio.Kind, _ pair: Ratio.Pair) -> String {
        switch kind {
        case .throughput: "\(BenchReport.count(pair.shipquote)) vs \(BenchReport.count(pair.echo)) events/s"
        case .p50, .p99: "\(BenchReport.ms(pair.shipquote)) vs \(BenchReport.ms(pair.echo)) ms"
        case .cpu: "\(BenchReport.seconds(pair.shipquote)) vs \(BenchReport.seconds(pair.echo)) s"
        }
    }

    private static func perEventText(_ pair: Ratio.Pair) -> String {
        String(format: "; per 1,000 events produced %@ vs %@ s = %.2f×", BenchReport.seconds(pair.shipquote),
               BenchReport.seconds(pair.echo), pair.value)
    }
}
