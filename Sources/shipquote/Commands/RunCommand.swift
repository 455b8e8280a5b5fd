import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import ShippingRules

/// `shipquote run`: the production worker.
enum RunCommand {
    static var help: String { RunFlags.help }

    static func run(_ args: [String]) throws {
        ProcessSignals.hold()   // before any thread starts, so a stop request is never lost
        let a = try Arguments(args, valued: RunFlags.valued, flags: RunFlags.switches)
        if a.has("--help") { return Output.line(help) }

        let settings: RunSettings
        do {
            settings = try ConfigurationResolver.resolve(RunFlags.sources(a, environment: ProcessInfo.processInfo.environment))
        } catch {
            Output.fail("run: invalid configuration: \(error)")
        }
        if a.has("--print-config") { return Output.line(settings.printed) }

        let rules: ReloadableRules
        do { rules = try ReloadableRules(path: settings.rulesPath) } catch { Output.fail("run: rules: \(error)") }
        if a.has("--create-topics") {
            try createTopics(settings, partitions: try a.int("--partitions") ?? 8, replication: try a.int("--replication-factor") ?? 3)
        }
        let logger = Logger(minimum: settings.logLevel)
        let metrics = WorkerMetrics(health: HealthState(staleAfter: settings.healthStaleAfter))
        metrics.rulesLoaded(version: rules.version)
        let worker: Worker
        do {
            worker = try Worker(configuration: settings.workerConfiguration, engine: rules, logger: logger, metrics: metrics)
        } catch {
            Output.fail("run: invalid configuration: \(error)")  // librdkafka names the property it refused
        }
        var endpoint: OperationsEndpoint?
        if let listen = settings.metricsListen {
            do { endpoint = try OperationsEndpoint(listen: listen, metrics: metrics) } catch {
                Output.fail("run: invalid configuration: metrics-listen: \(error)")
            }
            logger.info("serving /metrics, /healthz and /readyz", ["listen": .text(endpoint!.address.description)])
        }
        let watcher = RulesWatcher(rules: rules, metrics: metrics, logger: logger)
        watcher.start()
        ProcessSignals.handle(stop: { sig in
            logger.info("stop requested", ["signal": .int(sig)])
            worker.stop()
        }, reload: { watcher.reload(reason: "SIGHUP") })
        defer {
            endpoint?.stop()
            watcher.stop()
        }
        try worker.run()
    }

    static func createTopics(_ settings: RunSettings, partitions: Int, replication: Int) throws {
        try KafkaTopicAdmin.createTopics(TopicLayout.specs(settings.topics, partitions: partitions, replicationFactor: replication),
                                    configuration: settings.kafka)
    }
}
