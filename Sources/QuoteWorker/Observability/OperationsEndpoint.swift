import MetricsHTTP

/// The operations listener: `/metrics` (Prometheus text), `/healthz` (the loop turns) and
/// `/readyz` (rules loaded, group joined). A failing probe answers 503 with its reasons.
public final class OperationsEndpoint: Sendable {
    private let endpoint: HTTPEndpoint

    /// The address bound; with port 0 requested, the port the system chose.
    public var address: HTTPListenAddress { endpoint.address }

    public init(listen: HTTPListenAddress, metrics: WorkerMetrics) throws(HTTPEndpointError) {
        let registry = metrics.registry, health = metrics.health
        endpoint = try HTTPEndpoint(listen: listen, routes: [
            "/metrics": { HTTPResponse.text(registry.exposition(), contentType: MetricsRegistry.contentType) },
            "/healthz": { Self.probe(health.liveness) },
            "/readyz": { Self.probe(health.readiness) },
        ])
    }

    public func stop() { endpoint.stop() }

    private static func probe(_ verdict: HealthState.Verdict) -> HTTPResponse {
        .text(verdict.detail + "\n", status: verdict.ok ? 200 : 503, contentType: "application/json")
    }
}
