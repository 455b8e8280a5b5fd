import Foundation
import MetricsHTTP
import QuoteContract
import QuoteGateway
import ShippingRules
import Synchronization

/// `shipquote gateway`'s HTTP service: `POST /v1/sessions/{session_id}/quote` for a merchant's
/// backend and `POST /v1/sessions/{session_id}/final` for its check at authorization, answered
/// through a `QuoteGateway`, plus `/metrics`, `/healthz` and `/readyz`.
/// docs/openapi.yaml describes the API; the README's "HTTP gateway" section the operations.
public final class QuoteHTTPGateway: Sendable {
    public struct Configuration: Sendable {
        public var listen: HTTPListenAddress
        /// Larger bodies are refused with 413: by Content-Length before reading, or while reading.
        /// Up to `discardedBodyBytes` more are read and dropped first, so that the client reads the 413.
        public var maxBodyBytes: Int = 262_144
        /// Request line and headers; larger ones get libmicrohttpd's 431.
        public var maxHeaderBytes: Int = 32_768
        /// Open connections at once; more are not accepted until one closes.
        public var maxConnections: UInt32 = 1_024
        /// Quote calls waiting for their reply at once; more are answered 503 at once.
        public var maxInFlight: Int = 512
        /// A connection idle this long (a stalled client, mid-headers or mid-body) is closed.
        public var connectionTimeoutSeconds: UInt32 = 15
        /// The deadline of a call without a `Request-Timeout` header: shorter than Apple's limit.
        public var defaultTimeout: Duration = .seconds(10)
        /// The longest deadline a `Request-Timeout` header may ask for.
        public var maxTimeout: Duration = .seconds(25)
        /// HTTPS with this certificate and key; nil: plain HTTP.
        public var tls: GatewayTLS?

        public init(listen: HTTPListenAddress) { self.listen = listen }
    }

    /// How much of a body beyond `maxBodyBytes` (by its Content-Length) is still read and dropped
    /// before its 413 is sent, unless its client waits for `100 Continue`: a socket closed with
    /// bytes unread is reset, and a client still sending then sees the reset, not the answer.
    /// A longer body is answered at once (1 MiB).
    public static var discardedBodyBytes: Int { GatewayDaemon.discardedBodyBytes }

    public enum LogValue: Sendable, Equatable {
        case text(String)
        case int(Int64)
    }

    /// Receives one line per answered quote call and per lifecycle step: a message and fields
    /// (identifiers, status, durations; never an address or a cart).
    public typealias LogSink = @Sendable (_ level: String, _ message: String, _ fields: [String: LogValue]) -> Void

    static let sessionPrefix = "/v1/sessions/"
    /// The calls under `/v1/sessions/{session_id}/`, by their last path segment (and metrics route label).
    enum SessionRoute: String {
        case quote, final
    }

    public let metrics = GatewayMetrics()
    private let configuration: Configuration
    private let gateway: QuoteGateway
    private let log: LogSink
    private let ready = Atomic<Bool>(false)
    private let draining = Atomic<Bool>(false)
    private let reserved = Mutex<[String: Int64]>([:])
    private let pending = Mutex<[UInt64: AnswerOnce]>([:])
    private let nextCall = Atomic<UInt64>(0)
    private let daemon: Mutex<GatewayDaemon?> = Mutex(nil)

    /// Listens at once; `/readyz` answers 503 until `start()` has reached Kafka.
    public init(configuration: Configuration, gateway: QuoteGateway, log: @escaping LogSink = { _, _, _ in }) throws(HTTPEndpointError) {
        self.configuration = configuration
        self.gateway = gateway
        self.log = log
        let limits = GatewayDaemon.Limits(maxBodyBytes: configuration.maxBodyBytes,
                                          connectionTimeoutSeconds: configuration.connectionTimeoutSeconds,
                                          maxConnections: configuration.maxConnections, maxHeaderBytes: configuration.maxHeaderBytes,
                                          tls: configuration.tls)
        let box = WeakService()
        let started = try GatewayDaemon(listen: configuration.listen, limits: limits) { request in
            box.service?.route(request) ?? .now(.text(503, "stopping\n"))
        }
        daemon.withLock { $0 = started }
        box.service = self
    }

    /// `https` with a certificate configured, else `http`.
    public var scheme: String { configuration.tls == nil ? "http" : "https" }

    /// The address bound (with port 0, the port chosen).
    public var address: HTTPListenAddress { daemon.withLock { $0?.address } ?? configuration.listen }

    /// Starts the gateway's producer and reply reader; `/readyz` answers 200 from then on.
    public func start() async throws(GatewayError) {
        try await gateway.start()
        if !draining.load(ordering: .acquiring) { ready.store(true, ordering: .releasing) }
    }

    /// SIGTERM: `/readyz` fails at once, no new connection is accepted, the calls in flight are
    /// answered (up to `grace`; those still waiting then get 503), then the listener closes.
    public func drain(grace: Duration) async {
        ready.store(false, ordering: .releasing)
        draining.store(true, ordering: .releasing)
        guard let daemon = daemon.withLock({ $0 }) else { return }
        daemon.quiesce()
        log("info", "draining", ["in_flight": .int(Int64(metrics.inFlight))])
        let deadline = ContinuousClock.now + grace
        while metrics.inFlight > 0 && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        let unanswered = pending.withLock { p in defer { p = [:] }; return Array(p.values) }
        for call in unanswered { call.answer(QuoteCall.failure(.closed)) }
        // libmicrohttpd must not stop with a connection suspended; every one is resumed by now,
        // and their answers get a moment to leave.
        let sent = ContinuousClock.now + .seconds(2)
        while daemon.unfinished > 0 && ContinuousClock.now < sent { try? await Task.sleep(for: .milliseconds(10)) }
        self.daemon.withLock { $0 = nil }
        daemon.stop()
        log("info", "stopped", ["unanswered": .int(Int64(unanswered.count))])
    }

    // MARK: routing (on libmicrohttpd's thread: nothing here waits)

    func route(_ request: GatewayRequest) -> GatewayDaemon.Routed {
        let routed = dispatch(request)
        if case .now(let response) = routed { metrics.request(route: routeName(request.path), status: response.status) }
        return routed
    }

    private func routeName(_ path: String) -> String {
        switch path {
        case "/metrics", "/healthz", "/readyz": return path
        default: return sessionCall(in: path)?.route.rawValue ?? "other"
        }
    }

    private func dispatch(_ request: GatewayRequest) -> GatewayDaemon.Routed {
        switch request.path {
        case "/healthz":
            return .now(onlyGet(request) ?? .text(200, "ok\n"))
        case "/readyz":
            if let refused = onlyGet(request) { return .now(refused) }
            if draining.load(ordering: .acquiring) { return .now(.text(503, "draining\n")) }
            return .now(ready.load(ordering: .acquiring) ? .text(200, "ready\n") : .text(503, "producer and reply reader not started yet\n"))
        case "/metrics":
            return .now(onlyGet(request) ?? .text(200, metrics.render(), contentType: "text/plain; version=0.0.4; charset=utf-8"))
        default:
            guard let (session, route) = sessionCall(in: request.path) else {
                return .now(QuoteCall.badRequest("not_found", field: nil,
                                                 "no such route; POST /v1/sessions/{session_id}/quote or /final").with(status: 404))
            }
            guard request.method == "POST" else {
                var refused = QuoteCall.badRequest("method_not_allowed", field: nil, "only POST is served here").with(status: 405)
                refused.headers.append(("Allow", "POST"))
                return .now(refused)
            }
            return quote(request, session: session, route: route)
        }
    }

    private func onlyGet(_ request: GatewayRequest) -> GatewayResponse? {
        guard request.method != "GET" && request.method != "HEAD" else { return nil }
        var refused = GatewayResponse.text(405, "only GET and HEAD are served\n")
        refused.headers.append(("Allow", "GET, HEAD"))
        return refused
    }

    /// `/v1/sessions/{session_id}/quote` or `/final` → the session id (not yet validated: the
    /// contract's decoder does) and which call.
    private func sessionCall(in path: String) -> (session: String, route: SessionRoute)? {
        guard path.hasPrefix(Self.sessionPrefix), let slash = path.lastIndex(of: "/") else { return nil }
        let start = path.index(path.startIndex, offsetBy: Self.sessionPrefix.count)
        // `/v1/sessions/quote` has no session: its last slash ends the prefix.
        guard slash > start, let route = SessionRoute(rawValue: String(path[path.index(after: slash)...])) else { return nil }
        let id = path[start..<slash]
        return id.contains("/") ? nil : (String(id), route)
    }

    /// A `/quote` call, or a `/final` one: the same path to Kafka and back, another body and answer.
    private func quote(_ request: GatewayRequest, session: String, route: SessionRoute) -> GatewayDaemon.Routed {
        if request.bodyTooLarge {
            return .now(QuoteCall.badRequest("too_large", field: nil, "the body is larger than \(configuration.maxBodyBytes) bytes").with(status: 413))
        }
        if draining.load(ordering: .acquiring) {
            var refused = QuoteCall.failure(.closed)
            refused.headers.append(("Connection", "close"))
            return .now(refused)
        }
        let timeout: Duration
        switch deadline(request.headers["request-timeout"]) {
        case .success(let wait): timeout = wait
        case .failure(let refused): return .now(refused)
        }
        let given: JSONObject
        switch QuoteCall.readBody(request.body, maxBytes: configuration.maxBodyBytes) {
        case .success(let object): given = object
        case .failure(let refused): return .now(refused)
        }
        let body: JSONObject
        switch route == .final ? FinalCall.eventBody(given) : FinalCall.quoteBody(given) {
        case .success(let object): body = object
        case .failure(let refused): return .now(refused)
        }
        let now = Date()
        let givenSequence = QuoteCall.givenSequence(body)
        let assigned: Int64? = if case .some(.none) = givenSequence { reserve(session) } else { nil }
        let sequence: Int64? = if case .some(.some(let number)) = givenSequence { number } else { assigned }
        let event: AddressChangeEvent
        switch QuoteCall.event(body: body, sessionID: session, sequence: sequence, now: now,
                               replyBy: now.addingTimeInterval(timeout.seconds)) {
        case .success(let made): event = made
        case .failure(let refused):
            if let assigned { release(session, assigned) }
            return .now(refused)
        }
        let shown: Money?
        switch route == .final ? FinalCall.shownTotal(given, currency: event.currency).map(Optional.some) : .success(nil) {
        case .success(let amount): shown = amount
        case .failure(let refused):
            if let assigned { release(session, assigned) }
            return .now(refused)
        }
        guard metrics.enter(limit: configuration.maxInFlight) else {
            if let assigned { release(session, assigned) }
            var refused = QuoteCall.badRequest("overloaded", field: nil, "too many calls in flight; retry").with(status: 503)
            refused.headers.append(("Retry-After", "1"))
            return .now(refused)
        }
        let traceparent = request.headers["traceparent"]
        return .later { [self] answer in
            let call = AnswerOnce(answer)
            let id = nextCall.add(1, ordering: .relaxed).newValue
            pending.withLock { $0[id] = call }
            let began = ContinuousClock.now
            // Above the default priority: Swift gives each priority its own share of the cooperative
            // pool (as many threads as cores), so a host whose own tasks block that pool's default
            // share cannot hold a call past its deadline. (The test suite did: with its synchronous
            // tests holding both threads of two cores, a call's task started after its deadline.)
            Task(priority: .high) {
                let response: GatewayResponse
                do throws(GatewayError) {
                    let answer = try await gateway.quote(event, traceparent: traceparent)
                    response = shown.map { FinalCall.response(answer, shown: $0) } ?? QuoteCall.response(answer)
                } catch {
                    response = QuoteCall.failure(error)
                }
                if let assigned { release(session, assigned) }
                let seconds = (ContinuousClock.now - began).seconds
                metrics.quoteFinished(seconds: seconds, status: response.status)
                metrics.request(route: route.rawValue, status: response.status)
                metrics.leave()
                pending.withLock { _ = $0.removeValue(forKey: id) }
                log("info", route.rawValue, ["session_id": .text(session), "sequence": .int(event.sequence), "status": .int(Int64(response.status)),
                                      "duration_ms": .int(Int64(seconds * 1000))])
                call.answer(response)
            }
        }
    }

    /// The call's deadline: `Request-Timeout` in seconds (decimals allowed), at most `maxTimeout`.
    private func deadline(_ header: String?) -> Result<Duration, GatewayResponse> {
        guard let header else { return .success(configuration.defaultTimeout) }
        guard let seconds = Double(header.trimmingCharacters(in: .whitespaces)), seconds > 0, seconds.isFinite else {
            return .failure(QuoteCall.badRequest("invalid_header", field: "Request-Timeout", "Request-Timeout must be a number of seconds above 0"))
        }
        return .success(min(Duration.milliseconds(Int64(min(seconds, 86_400) * 1000)), configuration.maxTimeout))
    }

    /// The next sequence of a session without one in its body: above what this gateway sent and
    /// what calls still in progress took, so two calls at once never share a number.
    private func reserve(_ session: String) -> Int64 {
        reserved.withLock { r in
            let next = max(gateway.nextSequence(for: session), (r[session] ?? 0) + 1)
            r[session] = next
            return next
        }
    }

    private func release(_ session: String, _ sequence: Int64) {
        reserved.withLock { r in if r[session] == sequence { r[session] = nil } }
    }
}

/// Hands an answer to the daemon once; a drain that gives up on a call answers it first.
private final class AnswerOnce: Sendable {
    private let deliver: Mutex<(@Sendable (GatewayResponse) -> Void)?>

    init(_ deliver: @escaping @Sendable (GatewayResponse) -> Void) { self.deliver = Mutex(deliver) }

    func answer(_ response: GatewayResponse) {
        if let deliver = deliver.withLock({ d in defer { d = nil }; return d }) { deliver(response) }
    }
}

/// Breaks the cycle service → daemon → route closure → service.
private final class WeakService: @unchecked Sendable {
    weak var service: QuoteHTTPGateway?
}

extension GatewayResponse {
    func with(status: Int) -> GatewayResponse {
        var copy = self
        copy.status = status
        return copy
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
