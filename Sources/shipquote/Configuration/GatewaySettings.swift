import Foundation
import Kafka
import MetricsHTTP
import QuoteContract
import QuoteHTTPGateway
import QuoteWorker

/// The settings of `shipquote gateway`, through the worker's layers (flags > environment >
/// config file > defaults); the Kafka ones are the worker's own `Setting`s.
enum GatewaySetting {
    static let listen = Setting("listen", "HOST:PORT", "serve the quote API, /metrics, /healthz and /readyz here", default: "0.0.0.0:8080")
    static let requestTimeout = Setting("request-timeout", "SECONDS", "deadline of a call without a Request-Timeout header (below Apple's limit)", default: "10")
    static let maxRequestTimeout = Setting("max-request-timeout", "SECONDS", "longest deadline a Request-Timeout header may ask for", default: "25")
    static let maxBodyBytes = Setting("max-body-bytes", "BYTES", "larger request bodies are refused with 413", default: "262144")
    static let maxHeaderBytes = Setting("max-header-bytes", "BYTES", "request line and headers (larger: 431)", default: "32768")
    static let maxConnections = Setting("max-connections", "N", "open connections at once", default: "1024")
    static let maxInFlight = Setting("max-in-flight", "N", "quote calls waiting at once; more are answered 503", default: "512")
    static let connectionTimeout = Setting("connection-timeout", "SECONDS", "close a connection idle this long (a stalled client)", default: "15")

    /// Every setting, in the order `--help` and `--print-config` show them.
    static let all: [Setting] = [
        .config, .bootstrapServers, .kafkaProperties, .inputTopic, .replyTopic, listen, requestTimeout, maxRequestTimeout,
        maxBodyBytes, maxHeaderBytes, maxConnections, maxInFlight, connectionTimeout, .shutdownGrace, .logLevel,
    ]
}

/// The checked configuration of `shipquote gateway`.
struct GatewaySettings {
    let layers: LayeredSettings
    let kafka: KafkaConfiguration
    let topics: (events: String, replies: String)
    let http: QuoteHTTPGateway.Configuration
    let shutdownGrace: Duration
    let logLevel: Logger.Level

    init(_ sources: ConfigurationSources) throws(ConfigurationError) {
        layers = try ConfigurationResolver.resolve(sources, among: GatewaySetting.all, dedicated: [(.bootstrapServers, "bootstrap.servers")])
        kafka = try layers.kafka(missingHint: "give --bootstrap-servers, SHIPQUOTE_BOOTSTRAP_SERVERS, bootstrap-servers= in the config file, or the librdkafka property bootstrap.servers")
        topics = (layers.value(.inputTopic) ?? Topics.defaultAddressChanged, layers.value(.replyTopic) ?? Topics.defaultQuoteReplies)
        let listen: HTTPListenAddress
        do { listen = try HTTPListenAddress(parsing: layers.value(GatewaySetting.listen) ?? "") } catch {
            throw layers.invalid(GatewaySetting.listen, expected: "HOST:PORT, e.g. 0.0.0.0:8080 (\(error))")
        }
        var http = QuoteHTTPGateway.Configuration(listen: listen)
        http.defaultTimeout = .seconds(try layers.integer(GatewaySetting.requestTimeout, in: 1...600))
        http.maxTimeout = .seconds(try layers.integer(GatewaySetting.maxRequestTimeout, in: 1...600))
        http.maxBodyBytes = try layers.integer(GatewaySetting.maxBodyBytes, in: 1_024...1_048_576)
        http.maxHeaderBytes = try layers.integer(GatewaySetting.maxHeaderBytes, in: 4_096...1_048_576)
        http.maxConnections = UInt32(try layers.integer(GatewaySetting.maxConnections, in: 1...100_000))
        http.maxInFlight = try layers.integer(GatewaySetting.maxInFlight, in: 1...1_000_000)
        http.connectionTimeoutSeconds = UInt32(try layers.integer(GatewaySetting.connectionTimeout, in: 1...3_600))
        self.http = http
        shutdownGrace = .seconds(try layers.integer(.shutdownGrace, in: 0...3_600))
        guard let level = Logger.Level(name: layers.value(.logLevel) ?? "") else {
            throw layers.invalid(.logLevel, expected: "debug, info, warning or error")
        }
        logLevel = level
    }
}
