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
    static let tlsCertFile = Setting("tls-cert-file", "FILE", "serve HTTPS with this PEM certificate (chain); with --tls-key-file")
    static let tlsKeyFile = Setting("tls-key-file", "FILE", "the PEM private key of --tls-cert-file")
    static let tlsKeyPassword = Setting("tls-key-password", "SECRET", "password of an encrypted --tls-key-file", secret: true)

    /// The process environment without the worker's own settings (`SHIPQUOTE_RULES`,
    /// `SHIPQUOTE_METRICS_LISTEN` ...): the container image sets them for `run`, and the gateway
    /// runs from the same image. Any other unknown `SHIPQUOTE_` name is still refused as a typo.
    static func environment(_ environment: [String: String]) -> [String: String] {
        let mine = Set(all.map(\.environmentName))
        let workers = Set(Setting.all.map(\.environmentName)).subtracting(mine)
        return environment.filter { !workers.contains($0.key) }
    }

    /// Every setting, in the order `--help` and `--print-config` show them.
    static let all: [Setting] = [
        .config, .bootstrapServers, .kafkaProperties, .inputTopic, .replyTopic, listen, requestTimeout, maxRequestTimeout,
        maxBodyBytes, maxHeaderBytes, maxConnections, maxInFlight, connectionTimeout, tlsCertFile, tlsKeyFile, tlsKeyPassword,
        .shutdownGrace, .logLevel,
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
        http.tls = try Self.tls(layers)
        self.http = http
        shutdownGrace = .seconds(try layers.integer(.shutdownGrace, in: 0...3_600))
        guard let level = Logger.Level(name: layers.value(.logLevel) ?? "") else {
            throw layers.invalid(.logLevel, expected: "debug, info, warning or error")
        }
        logLevel = level
    }

    /// HTTPS when both files are given, plain HTTP when neither is; one alone is a mistake.
    private static func tls(_ layers: LayeredSettings) throws(ConfigurationError) -> GatewayTLS? {
        let cert = layers.value(GatewaySetting.tlsCertFile), key = layers.value(GatewaySetting.tlsKeyFile)
        let both = "give both tls-cert-file and tls-key-file to serve HTTPS, or neither for plain HTTP"
        switch (cert, key) {
        case (nil, nil):
            if layers.value(GatewaySetting.tlsKeyPassword) != nil {
                throw .missing(setting: GatewaySetting.tlsKeyFile.name, hint: "tls-key-password is set but no key is: \(both)")
            }
            return nil
        case (.some, nil):
            throw .missing(setting: GatewaySetting.tlsKeyFile.name, hint: "tls-cert-file is set: \(both)")
        case (nil, .some):
            throw .missing(setting: GatewaySetting.tlsCertFile.name, hint: "tls-key-file is set: \(both)")
        case (.some(let cert), .some(let key)):
            return GatewayTLS(certificatePEM: try pem(cert, GatewaySetting.tlsCertFile, layers),
                              keyPEM: try pem(key, GatewaySetting.tlsKeyFile, layers),
                              keyPassword: layers.value(GatewaySetting.tlsKeyPassword))
        }
    }

    /// A file's text, which must hold a PEM block; the error names the setting and the file.
    private static func pem(_ path: String, _ setting: Setting, _ layers: LayeredSettings) throws(ConfigurationError) -> String {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw .unreadableFile(path: path, setting: setting.name, reason: (error as NSError).localizedDescription)
        }
        guard text.contains("-----BEGIN ") else { throw layers.invalid(setting, expected: "a PEM file (a -----BEGIN ...----- block)") }
        return text
    }
}
