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
        let shipquote: Double
        let echo: Double
        /// CPU only: the same per 1,000 events produced (shipquote, echo), which conflation does not skew.
        var perEvent: (shipquote: Double, echo: Double)? = nil
        var value: Double { echo > 0 ? shipquote / echo : 0 }
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
    }

    /// In the order of the phases' rates: throughput at `max`, p50 and p99 at each fixed rate
    /// (at `max` only when no rate is fixed: there both are queueing), CPU at every rate.
    let ratios: [Ratio]

    init(_ phases: [PhaseResult]) {
        var rates: [String] = []
        for p in phases where !rates.contains(p.rate) { rates.append(p.rate) }
        let anyFixed = rates.contains { $0 != "max" }
        var ratios: [Ratio] = []
        for rate in rates {
            let chosen = phases.filter { $0.rate == rate }
            guard let q = chosen.last(where: { $0.system == "shipquote" }), let e = chosen.last(where: { $0.system == "echo" }) else { continue }
            if rate == "max" { ratios.append(Ratio(kind: .throughput, rate: rate, shipquote: q.eventsPerSecond, echo: e.eventsPerSecond)) }
            if rate != "max" || !anyFixed {
                ratios.append(Ratio(kind: .p50, rate: rate, shipquote: q.latency.p50, echo: e.latency.p50))
                ratios.append(Ratio(kind: .p99, rate: rate, shipquote: q.latency.p99, echo: e.latency.p99))
            }
            if let qc = q.cpuPerThousandAnswered, let ec = e.cpuPerThousandAnswered {
                ratios.append(Ratio(kind: .cpu, rate: rate, shipquote: qc, echo: ec,
                                    perEvent: q.cpuPerThousandEvents.flatMap { qe in e.cpuPerThousandEvents.map { (qe, $0) } }))
            }
        }
        self.ratios = ratios
    }

    func ratio(_ kind: Ratio.Kind, at rate: String) -> Ratio? { ratios.first { $0.kind == kind && $0.rate == rate } }

    var json: [[String: Any]] {
        ratios.map { r in
            ["measure": r.kind.rawValue, "rate": r.rate, "shipquote": r.shipquote, "echo": r.echo, "ratio": r.value,
             r.kind == .throughput ? "target_min" : "target_max": r.target, "meets_target": r.met]
        }
    }

    /// One line per ratio, for the table.
    var lines: [String] {
        ratios.map { r in
            let (what, figures) = switch r.kind {
            case .throughput: ("throughput", "\(BenchReport.count(r.shipquote)) vs \(BenchReport.count(r.echo)) events/s")
            case .p50, .p99: (r.kind.rawValue, "\(BenchReport.ms(r.shipquote)) vs \(BenchReport.ms(r.echo)) ms")
            case .cpu: ("CPU per 1,000 answered", "\(BenchReport.seconds(r.shipquote)) vs \(BenchReport.seconds(r.echo)) s"
                        + (r.perEvent.map { String(format: "; per 1,000 events produced %@ vs %@ s = %.2f×", BenchReport.seconds($0.shipquote),
                                                   BenchReport.seconds($0.echo), $0.echo > 0 ? $0.shipquote / $0.echo : 0) } ?? ""))
            }
            let note = r.rate == "max" && (r.kind == .p50 || r.kind == .p99) ? ", meant for a fixed rate" : ""
            return "\(what) ratio (shipquote/echo, at \(r.rate)): " + String(format: "%.2f×", r.value)
                + "  (\(figures); target \(r.kind == .throughput ? "≥" : "≤") \(String(format: "%.1f", r.target))×\(note): \(r.met ? "met" : "NOT met"))"
        }
    }
}
