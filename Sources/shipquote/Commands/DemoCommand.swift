import Foundation
import Kafka
import KafkaTesting
import MetricsHTTP
import QuoteContract
import QuoteGateway
import QuoteHTTPGateway
import QuoteWorker
import ShippingRules

/// `shipquote demo`: an embedded broker, a worker and a scripted gateway playing one checkout.
enum DemoCommand {
    static let help = """
    usage: shipquote demo [--rules FILE|DIR] [--log-level LEVEL]

    Starts an embedded Kafka, a worker with the example US rules, and plays a checkout: the sheet
    opens, the address changes, changes again before its answer (that answer is dropped as stale),
    an address the merchant cannot serve, a malformed event (dead letter + rejected reply), and a
    last good address. Prints each event and its reply. Then plays the checkout again over HTTP, as
    a merchant's backend would: `shipquote gateway` in-process on 127.0.0.1, one curl-like POST per
    step with the status and body it got (204 keep, 200 update, 409 superseded, 400 refused).
    Needs no running services.
    """

    static func run(_ args: [String]) throws {
        if Output.wantsHelp(args) { Output.help(help) }
        let a = try Arguments(args, valued: ["--rules", "--log-level"], flags: ["--help"])
        let rulesPath = a.value("--rules") ?? defaultRulesPath()
        let rules: RuleLibrary
        do { rules = try RuleLibrary.load(path: rulesPath) } catch { Output.fail("demo: \(error)", exitCode: ExitCode.configuration) }
        guard let level = Logger.Level(name: a.value("--log-level") ?? "error") else {
            Output.fail("demo: --log-level must be debug, info, warning or error")
        }

        let topics = Topics.defaults
        let cluster = try EmbeddedKafkaCluster(brokers: 1, topics: TopicLayout.specs(topics, partitions: 4))
        let kafka = EmbeddedClients.defaults(bootstrap: cluster.bootstrapServers)
        Output.line("ShipQuote demo")
        Output.line("  embedded Kafka  \(cluster.bootstrapServers)")
        Output.line("  rules           \(rulesPath) (\(rules.version.prefix(19))…)")

        var workerConfig = WorkerConfiguration(topics: topics, kafka: kafka)
        workerConfig.kafka["group.id"] = "shipquote-demo"
        let logger = Logger(minimum: level)
        let worker = try Worker(configuration: workerConfig, engine: rules, logger: logger)
        let workerDone = DispatchSemaphore(value: 0)
        let workerThread = Thread {
            do { try worker.run() } catch { Output.line("worker failed: \(error)") }
            workerDone.signal()
        }
        workerThread.start()
        let gateway = QuoteGateway(configuration: .init(kafka: kafka, eventsTopic: topics.addressChanged,
                                                        repliesTopic: topics.quoteReplies),
                                   log: logger.kafkaLogSink, onClientError: logger.kafkaClientError)
        try BlockingCall.run { () async throws(GatewayError) in try await gateway.start() }.get()
        // The group's first join on the embedded broker takes a few seconds.
        let joinDeadline = Date().addingTimeInterval(30)
        while worker.assignedPartitions.isEmpty && Date() < joinDeadline { usleep(50_000) }
        Output.line("  worker          joined group shipquote-demo, partitions \(worker.assignedPartitions.map { String($0.partition) }.joined(separator: ","))")
        Output.line()

        let checkout = DemoCheckout()
        Output.line("Checkout session \(checkout.sessionID): 2 × T-shirt 25.00, 1 × Mug 12.00, promo -5.00 (USD)")
        Output.line()
        let play = DemoPlay(gateway: gateway, worker: worker)

        try play.step(checkout.event(1, .sheetOpened, PartialAddress(city: "Cupertino", state: "CA", postalCode: "95014", countryCode: "US")),
                      note: "the sheet opens with the customer's default address")
        try play.step(checkout.event(2, .addressChanged, PartialAddress(city: "San Francisco", state: "CA", postalCode: "94107", countryCode: "US")),
                      note: "the customer picks another address")
        try play.burst(checkout.event(3, .addressChanged, PartialAddress(city: "New York", state: "NY", postalCode: "10001", countryCode: "US")),
                       then: checkout.event(4, .addressChanged, PartialAddress(city: "Austin", state: "TX", postalCode: "78701", countryCode: "US")),
                       note: "the customer changes the address again before the answer comes")
        try play.step(checkout.event(5, .addressChanged, PartialAddress(city: "Toronto", state: "ON", postalCode: "M5V", countryCode: "CA")),
                      note: "an address the merchant does not ship to")
        try play.malformed(checkout.malformed(6), sessionID: checkout.sessionID, sequence: 6,
                           note: "a broken gateway sends an amount finer than a cent (25.005 USD)")
        try play.step(checkout.event(7, .addressChanged, PartialAddress(city: "Los Angeles", state: "CA", postalCode: "90012", countryCode: "US"), selected: "express"),
                      note: "a last address, with express selected on the sheet")

        try play.showDeadLetter(kafka: kafka, topic: topics.deadLetters)
        try playOverHTTP(kafka: kafka, topics: topics, logger: logger)
        gateway.close()
        worker.stop()
        workerDone.wait()
        let m = worker.metrics.snapshot()
        Output.line()
        Output.line("Worker counters: \(m.eventsIn) events in; outcomes " +
                    m.outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") +
                    "; drops " + (m.drops.isEmpty ? "none" : m.drops.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")) +
                    "; dead letters \(m.deadLetters)")
        Output.line("Demo finished.")
    }

    /// The same checkout through the HTTP gateway, on a session of its own (the worker already holds
    /// the first one's sequences), over the same broker and worker.
    static func playOverHTTP(kafka: KafkaConfiguration, topics: Topics, logger: Logger) throws {
        let gateway = QuoteGateway(configuration: .init(kafka: kafka, eventsTopic: topics.addressChanged, repliesTopic: topics.quoteReplies),
                                   log: logger.kafkaLogSink, onClientError: logger.kafkaClientError)
        var configuration = QuoteHTTPGateway.Configuration(listen: HTTPListenAddress(host: "127.0.0.1", port: 0))
        configuration.defaultTimeout = .seconds(15)
        let http = try QuoteHTTPGateway(configuration: configuration, gateway: gateway)
        try BlockingCall.run { () async throws(GatewayError) in try await http.start() }.get()
        defer {
            _ = BlockingCall.run { () async -> Void in await http.drain(grace: .seconds(1)) }
            gateway.close()
        }
        let checkout = DemoCheckout()
        let play = DemoHTTPPlay(port: http.address.port, sessionID: checkout.sessionID)
        Output.line()
        Output.line("The same checkout over HTTP, as a merchant's backend calls it: shipquote gateway on 127.0.0.1:\(http.address.port)")
        Output.line("Checkout session \(checkout.sessionID) (the same cart)")
        Output.line()
        play.step(checkout.event(1, .sheetOpened, PartialAddress(city: "Cupertino", state: "CA", postalCode: "95014", countryCode: "US")),
                  note: "the sheet opens with the customer's default address")
        play.step(checkout.event(2, .addressChanged, PartialAddress(city: "San Francisco", state: "CA", postalCode: "94107", countryCode: "US")),
                  note: "the customer picks another address")
        play.step(checkout.event(4, .addressChanged, PartialAddress(city: "Austin", state: "TX", postalCode: "78701", countryCode: "US")),
                  note: "the customer changes the address twice quickly; the call for the newer one reaches the gateway first")
        play.step(checkout.event(3, .addressChanged, PartialAddress(city: "New York", state: "NY", postalCode: "10001", countryCode: "US")),
                  note: "the call for the address before it arrives late")
        play.step(checkout.event(5, .addressChanged, PartialAddress(city: "Toronto", state: "ON", postalCode: "M5V", countryCode: "CA")),
                  note: "an address the merchant does not ship to")
        play.malformed(checkout.malformed(6), sequence: 6, note: "a broken backend sends an amount finer than a cent (25.005 USD)")
        play.step(checkout.event(7, .addressChanged, PartialAddress(city: "Los Angeles", state: "CA", postalCode: "90012", countryCode: "US"), selected: "express"),
                  note: "a last address, with express selected on the sheet")
    }

    /// The example rules, found from the working directory or next to this source tree.
    static func defaultRulesPath() -> String {
        let relative = "examples/rules/us-acme.yaml"
        if FileManager.default.fileExists(atPath: relative) { return relative }
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return repo.appendingPathComponent(relative).path
    }
}
