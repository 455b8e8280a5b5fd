import Benchmarking

/// What one `bench gateway` phase measured.
struct GatewayPhaseResult {
    let name: String
    /// `http` or `kafka`.
    let path: String
    let rate: String
    let planned: Int
    /// Calls made (fewer than planned when `--duration-limit` came first); each has one status.
    let sent: Int
    /// Calls by the status they were answered with; 0: no HTTP response at all.
    let statuses: [Int: Int]
    /// Calls overtaken by a newer one of their session: the HTTP gateway's own count
    /// (`shipquote_gateway_superseded_total`), or the library's `.superseded` answers.
    let superseded: Int
    let latency: LatencySummary
    /// From the first call made to the last answer.
    let seconds: Double
    /// Calls answered per second over `seconds`.
    let achievedRate: Double
    /// How far a call started behind its schedule at most (fixed rates; all callers busy).
    let worstLag: Double
    /// The ten slowest calls, slowest first: when each was made (seconds into the phase) and how
    /// long it took. Calls made within a few milliseconds of each other show a stall of the whole path.
    let slowest: [(madeAt: Double, seconds: Double)]
    let workerCounts: ServiceCounts
    let failure: String?

    /// The statuses the report names, then `other`.
    static let namedStatuses = [200, 204, 409, 422, 504]

    var other: Int { statuses.filter { !Self.namedStatuses.contains($0.key) }.values.reduce(0, +) }

    func count(_ status: Int) -> Int { statuses[status] ?? 0 }

    var json: [String: Any] {
        var byStatus: [String: Int] = ["other": other]
        for status in Self.namedStatuses { byStatus[String(status)] = count(status) }
        var out: [String: Any] = [
            "name": name, "path": path, "rate": rate, "requests_planned": planned, "requests_sent": sent,
            "requests_unsent": planned - sent, "statuses": byStatus,
            "status_codes": Dictionary(uniqueKeysWithValues: statuses.map { (String($0.key), $0.value) }),
            "superseded": superseded, "seconds": seconds, "achieved_per_second": achievedRate.rounded(),
            "caller_worst_lag_ms": worstLag * 1000,
            "slowest_calls": slowest.map { ["made_at_s": $0.madeAt, "ms": $0.seconds * 1000] },
            "latency_ms": ["p50": latency.p50 * 1000, "p90": latency.p90 * 1000, "p99": latency.p99 * 1000,
                           "p999": latency.p999 * 1000, "max": latency.max * 1000, "mean": latency.mean * 1000],
            "worker_outcomes": workerCounts.outcomes, "worker_drops": workerCounts.drops,
        ]
        if let failure { out["failure"] = failure }
        return out
    }
}
