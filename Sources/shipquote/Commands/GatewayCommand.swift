import Foundation
import Kafka
import QuoteGateway
import QuoteHTTPGateway
import QuoteWorker

/// `shipquote gateway`: the HTTP/1.1 quote API for a merchant's backend (docs/openapi.yaml).
/// Logs are JSON lines on stderr, as `run`'s; SIGTERM or SIGINT drains the calls in flight.
enum GatewayCommand {
    static var help: String {
        var lines = ["usage: shipquote gateway --bootstrap-servers HOST:PORT [--listen HOST:PORT] [flags]", ""]
        let row = RunFlags.settingRows(GatewaySetting.all, into: &lines)
        lines += [
            row("-X key=value", "a librdkafka property (repeatable)"),
            row("--print-config", "print the effective configuration and where each value came from, secrets redacted, and exit"),
            "",
            "POST /v1/sessions/{session_id}/quote answers with the YunoShippingUpdate for the app;",
            "POST /v1/sessions/{session_id}/final checks the total to charge after authorization (docs/openapi.yaml).",
            "Settings are also SHIPQUOTE_<NAME> variables and keys of the --config file, as for `shipquote run`.",
            "Precedence: flags > environment > config file > defaults.",
        ]
        return lines.joined(separator: "\n")
    }

    static func run(_ args: [String]) throws {
        ProcessSignals.hold()
        if Output.wantsHelp(args) { Output.help(help) }
        var logger = Logger(minimum: .info)
        let a: Arguments
        do { a = try Arguments(args, valued: Set(GatewaySetting.all.map(\.flag)).union(["-X"]), flags: ["--print-config", "--help"]) } catch {
            fail(logger, "usage error", error, ExitCode.usage)
        }
        let settings: GatewaySettings
        do {
            settings = try GatewaySettings(RunFlags.sources(a, environment: GatewaySetting.environment(ProcessInfo.processInfo.environment),
                                                            settings: GatewaySetting.all))
        } catch {
            fail(logger, "invalid configuration", error, ExitCode.configuration)
        }
        if a.has("--print-config") { return Output.line(settings.layers.printed) }
        logger = Logger(minimum: settings.logLevel)

        let log = logger
        let gateway = QuoteGateway(configuration: .init(kafka: settings.kafka, eventsTopic: settings.topics.events, repliesTopic: settings.topics.replies),
                                   log: logger.kafkaLogSink,
                                   onClientError: { error in log.error("kafka client error", ["detail": .text("\(error)")]) })
        let http: QuoteHTTPGateway
        do {
            http = try QuoteHTTPGateway(configuration: settings.http, gateway: gateway) { level, message, fields in
                log.log(Logger.Level(name: level) ?? .info, message, fields.mapValues { value in
                    switch value {
                    case .text(let text): .text(text)
                    case .int(let number): .number(number)
                    }
                })
            }
        } catch {
            let code = if case .cannotListen = error { ExitCode.failure } else { ExitCode.configuration }
            if case .tlsRefused = error {
                fail(logger, "tls: the gateway could not start: check that tls-key-file is the private key of tls-cert-file, "
                     + "both PEM, and tls-key-password if the key is encrypted", error, code)
            }
            fail(logger, "listen: the gateway could not start", error, code)
        }
        logger.info("serving /metrics, /healthz, /readyz and the quote API",
                    ["listen": .text(http.address.description), "scheme": .text(settings.http.tls == nil ? "http" : "https")])
        if case .failure(let error) = BlockingCall.run({ () async throws(GatewayError) in try await http.start() }) {
            fail(logger, "kafka: the gateway's clients could not start", error, ExitCode.configuration)
        }
        logger.info("ready: producer and reply reader started")
        let stopped = DispatchSemaphore(value: 0)
        let grace = settings.shutdownGrace
        ProcessSignals.handle(stop: { sig in
            log.info("stop requested", ["signal": .int(sig)])
            Task {
                await http.drain(grace: grace)
                gateway.close()
                stopped.signal()
            }
        })
        stopped.wait()
    }

    private static func fail(_ logger: Logger, _ message: String, _ error: any Error, _ code: Int32) -> Never {
        logger.error(message, ["detail": .text("\(error)"), "exit_code": .int(code)])
        Foundation.exit(code)
    }
}
