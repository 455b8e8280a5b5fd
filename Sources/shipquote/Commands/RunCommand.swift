import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import ShippingRules

/// `shipquote run`: the production worker.
enum RunCommand {
    static var help: String { RunFlags.help }

    /// Once it starts, every line this command writes to stderr is one JSON object, its own errors
    /// included: usage errors exit 2, a configuration it cannot run with 78 (EX_CONFIG), a failure
    /// while running (a broker that cannot be reached, a worker that stopped by itself) 1.
    static func run(_ args: [String]) throws {
        ProcessSignals.hold()   // before any thread starts, so a stop request is never lost
        if Output.wantsHelp(args) { Output.help(help) }
        // Until the configured level is known; errors are written at every level.
        var logger = Logger(minimum: .info)
        let a: Arguments
        do { a = try Arguments(args, valued: RunFlags.valued, flags: RunFlags.switches) } catch {
            exit(logger, "usage error", error, ExitCode.usage, ["help": "shipquote run --help"])
        }

        let settings: RunSettings
        do {
            settings = try ConfigurationResolver.resolve(RunFlags.sources(a, environment: ProcessInfo.processInfo.environment))
        } catch {
            exit(logger, "invalid configuration", error, ExitCode.configuration)
        }
        if a.has("--print-config") { return Output.line(settings.printed) }
        logger = Logger(minimum: settings.logLevel)
        // Watched from here on, so a start-up that hangs (topics, a broker) is bounded too; a SIGTERM
        // sent before the stop handler runs stays pending until it does.
        if a.has("--exit-with-parent") {
            let bound = Double(settings.shutdownGrace.components.seconds) + 5
            ProcessSignals.stopWithParent(within: bound, noticed: { [logger] in
                logger.info("the parent exited; stopping as on SIGTERM")
            }) { [logger] in
                logger.error("the parent exited and the stop did not end in time; exiting", ["within_seconds": .int(Int(bound)),
                                                                                            "exit_code": .int(ExitCode.failure)])
            }
        }

        let rules: ReloadableRules
        do { rules = try ReloadableRules(path: settings.rulesPath) } catch {
            exit(logger, "invalid configuration: rules", error, ExitCode.configuration)
        }
        if a.has("--create-topics") {
            do {
                try createTopics(settings, partitions: try a.int("--partitions") ?? 8, replication: try a.int("--replication-factor") ?? 3,
                                 log: logger.kafkaLogSink(keepingFailures: true))  // the admin has no error callback
            } catch let error as Arguments.UsageError {
                exit(logger, "usage error", error, ExitCode.usage)
            } catch {
                exit(logger, "topics could not be created", error, code(of: error))
            }
        }
        let metrics = WorkerMetrics(health: HealthState(staleAfter: settings.healthStaleAfter))
        metrics.rulesLoaded(version: rules.version)
        let worker: Worker
        do {
            worker = try Worker(configuration: settings.workerConfiguration, engine: rules, logger: logger, metrics: metrics)
        } catch {
            exit(logger, "invalid configuration", error, ExitCode.configuration)  // librdkafka names the property it refused
        }
        var endpoint: OperationsEndpoint?
        if let listen = settings.metricsListen {
            do { endpoint = try OperationsEndpoint(listen: listen, metrics: metrics) } catch {
                let code = if case .cannotListen = error { ExitCode.failure } else { ExitCode.configuration }
                exit(logger, "metrics-listen: the operations endpoint could not start", error, code)
            }
            logger.info("serving /metrics, /healthz and /readyz", ["listen": .text(endpoint!.address.description)])
        }
        let watcher = RulesWatcher(rules: rules, metrics: metrics, logger: logger)
        watcher.start()
        ProcessSignals.handle(stop: { [logger] sig in
            metrics.health.setStopping()  // first: /readyz answers 503 from this instant, not once the loop notices
            logger.info("stop requested", ["signal": .int(sig)])
            worker.stop()
        }, reload: { watcher.reload(reason: "SIGHUP") })
        defer {
            endpoint?.stop()
            watcher.stop()
        }
        do { try worker.run() } catch {
            endpoint?.stop()
            watcher.stop()
            exit(logger, "worker failed", error, code(of: error))
        }
    }

    /// A topic layout the worker cannot use is configuration; anything else while running is a failure.
    private static func code(of error: any Error) -> Int32 {
        if error is WorkerSetupError { return ExitCode.configuration }
        if let kafka = error as? KafkaError, kafka.name == "_INVALID_ARG" { return ExitCode.configuration }
        return ExitCode.failure
    }

    /// The error as a JSON log line, then the exit.
    private static func exit(_ logger: Logger, _ message: String, _ error: any Error, _ code: Int32,
                             _ fields: [String: LogValue] = [:]) -> Never {
        var fields = fields
        fields["detail"] = .text("\(error)")
        fields["exit_code"] = .int(code)
        logger.error(message, fields)
        Foundation.exit(code)
    }

    static func createTopics(_ settings: RunSettings, partitions: Int, replication: Int, log: KafkaLogSink?) throws {
        try KafkaTopicAdmin.createTopics(TopicLayout.specs(settings.topics, partitions: partitions, replicationFactor: replication),
                                         configuration: settings.kafka, log: log)
    }
}
