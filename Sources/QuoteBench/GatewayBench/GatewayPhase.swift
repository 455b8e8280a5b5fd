import Benchmarking
import Foundation
import Kafka
import MetricsHTTP
import QuoteContract
import QuoteGateway
import QuoteHTTPGateway
import ShippingRules

/// One measurement of `bench gateway`: the plan's calls at one rate through one path, on topics
/// of their own with fresh workers and a fresh gateway. `http`: HTTP/1.1 to `QuoteHTTPGateway` on
/// 127.0.0.1, over the gateway library; `kafka`: the gateway library called directly.
struct GatewayPhase {
    enum Path: String { case http, kafka }

    let path: Path
    let rate: BenchSettings.Rate

    var name: String { "\(path.rawValue)-\(rate.slug)" }

    struct Context {
        let settings: GatewayBenchSettings
        let broker: BenchBroker
        let plan: LoadPlan
        let rules: RuleLibrary
        let merchant: String?
    }

    func run(_ context: Context) throws -> GatewayPhaseResult {
        let settings = context.settings, broker = context.broker, plan = context.plan
        let topics = try broker.topics(for: name)
        let workers = try QuoteWorkers(count: settings.workers, kafka: broker.kafka, topics: topics, engine: context.rules, maxBatch: 2_000)
        defer { workers.stop() }
        let joinDeadline = uptimeNanoseconds() + 60_000_000_000
        while workers.assignedPartitions < broker.partitions && workers.failure == nil && uptimeNanoseconds() < joinDeadline { usleep(20_000) }
        if let failure = workers.failure { throw BenchError(description: "\(name): a worker stopped: \(failure)") }
        guard workers.assignedPartitions >= broker.partitions else { throw BenchError(description: "\(name): the workers did not get every partition within 60 s") }

        let gateway = QuoteGateway(configuration: .init(kafka: broker.kafka, eventsTopic: topics.addressChanged, repliesTopic: topics.quoteReplies))
        defer { gateway.close() }
        try BlockingCall.run { () async throws(GatewayError) in try await gateway.start() }.get()
        let http = QuoteHTTPGateway.Configuration(listen: HTTPListenAddress(host: "127.0.0.1", port: 0))
        let timeout = http.defaultTimeout.components.seconds

        let warmups = (0..<Int32(broker.partitions * 4)).map { LoadPlan.Event(session: $0, sequence: 1) }
        let caller: Callers
        var server: QuoteHTTPGateway?
        switch path {
        case .http:
            let started = try QuoteHTTPGateway(configuration: http, gateway: gateway)
            server = started
            try BlockingCall.run { () async throws(GatewayError) in try await started.start() }.get()
            caller = Self.httpCallers(port: started.address.port, timeoutSeconds: Int(timeout) + 5, plan: plan.events,
                                      warmups: warmups, merchant: context.merchant)
        case .kafka:
            caller = Self.libraryCallers(gateway, timeoutSeconds: Int(timeout), plan: plan.events, warmups: warmups, merchant: context.merchant)
        }
        defer {
            if let server { _ = BlockingCall.run { await server.drain(grace: .seconds(2)) } }
        }

        // Calls on sessions of their own before the clock starts: every partition has been fetched and answered once.
        _ = ClosedLoopLoad(count: warmups.count, connections: min(settings.connections, warmups.count), rate: .max, durationLimit: 60)
            .run(makeCaller: caller(true))
        let supersededBefore = server.map { Self.superseded($0.metrics) } ?? 0
        let outcome = ClosedLoopLoad(count: plan.events.count, connections: settings.connections, rate: rate,
                                     durationLimit: settings.durationLimit).run(makeCaller: caller(false))
        var statuses: [Int: Int] = [:]
        for call in outcome.calls { statuses[call.status, default: 0] += 1 }
        let superseded = server.map { Self.superseded($0.metrics) - supersededBefore } ?? (statuses[409] ?? 0)
        let samples = outcome.calls.map(\.seconds)
        let seconds = Double(max(outcome.finishedAt, outcome.startedAt) - outcome.startedAt) / 1e9
        return GatewayPhaseResult(name: name, path: path.rawValue, rate: rate.description, planned: plan.events.count,
                                  sent: outcome.calls.count, statuses: statuses, superseded: superseded,
                                  latency: LatencySummary(samples: samples), seconds: seconds,
                                  achievedRate: seconds > 0 ? Double(outcome.calls.count) / seconds : 0,
                                  worstLag: outcome.worstLag,
                                  slowest: outcome.calls.sorted { $0.seconds > $1.seconds }.prefix(10).map { ($0.madeAt, $0.seconds) },
                                  workerCounts: workers.counts(), failure: workers.failure)
    }

    /// For the warm-up (true) or the measured calls, what each caller thread calls with a request's index.
    typealias Callers = @Sendable (_ warmUp: Bool) -> @Sendable (_ thread: Int) -> (_ index: Int) -> Int

    /// A kept-alive connection per caller. The requests' bytes are made before the clock starts:
    /// the gateway sets `occurred_at` and `reply_by` itself.
    private static func httpCallers(port: UInt16, timeoutSeconds: Int, plan: [LoadPlan.Event], warmups: [LoadPlan.Event],
                                    merchant: String?) -> Callers {
        let now = Date()
        let measured = plan.map { GatewayCalls.httpRequest(BenchEvents.event($0, merchant: merchant, occurredAt: now)) }
        let warm = warmups.map { GatewayCalls.httpRequest(BenchEvents.event($0, merchant: merchant, occurredAt: now, prefix: BenchEvents.warmupPrefix)) }
        return { warmUp in
            let requests = warmUp ? warm : measured
            return { _ in
                let connection = HTTPConnection(port: port, timeoutSeconds: timeoutSeconds)
                connection.connect()
                return { index in connection.exchange(requests[index]) }
            }
        }
    }

    /// The library called directly; each event is made at call time, its `reply_by` the HTTP
    /// gateway's default deadline from then, as the HTTP gateway makes it.
    private static func libraryCallers(_ gateway: QuoteGateway, timeoutSeconds: Int, plan: [LoadPlan.Event], warmups: [LoadPlan.Event],
                                       merchant: String?) -> Callers {
        { warmUp in
            let events = warmUp ? warmups : plan
            let prefix = warmUp ? BenchEvents.warmupPrefix : BenchEvents.sessionPrefix
            return { _ in
                { index in
                    let now = Date()
                    let event = BenchEvents.event(events[index], merchant: merchant, occurredAt: now,
                                                  replyBy: now.addingTimeInterval(TimeInterval(timeoutSeconds)), prefix: prefix)
                    return GatewayCalls.quote(gateway, event)
                }
            }
        }
    }

    /// `shipquote_gateway_superseded_total` as the gateway's /metrics gives it.
    static func superseded(_ metrics: GatewayMetrics) -> Int {
        let prefix = "shipquote_gateway_superseded_total "
        for line in metrics.render().split(separator: "\n") where line.hasPrefix(prefix) {
            return Int(line.dropFirst(prefix.count)) ?? 0
        }
        return 0
    }
}
