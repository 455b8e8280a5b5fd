import Foundation
import Kafka
import KafkaTesting
import MetricsHTTP
import QuoteContract
import QuoteGateway
import QuoteHTTPGateway
import QuoteWorker
import ShippingRules
import Synchronization
import Testing

/// The embedded broker, optionally a worker on its own thread (the example rules), a QuoteGateway
/// and the HTTP gateway on 127.0.0.1 with a port of its own.
final class GatewayStack: @unchecked Sendable {
    let cluster: EmbeddedKafkaCluster
    let kafka: KafkaConfiguration
    let gateway: QuoteGateway
    let http: QuoteHTTPGateway
    let logBook = LogBook()
    /// Given to every curl call of the stack's own (`--cacert` for HTTPS).
    let curlOptions: [String]
    private let worker: Worker?
    private let workerDone = DispatchSemaphore(value: 0)

    static let rulesPath: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/rules/us-acme.yaml").path
    }()

    init(worker withWorker: Bool, rules: String = GatewayStack.rulesPath, curlOptions: [String] = [],
         configure: (inout QuoteHTTPGateway.Configuration) -> Void = { _ in }) async throws {
        self.curlOptions = curlOptions
        cluster = try EmbeddedKafkaCluster(brokers: 1, topics: TopicLayout.specs(.defaults, partitions: 4))
        kafka = KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers, "fetch.wait.max.ms": "5"])
        if withWorker {
            var config = WorkerConfiguration(kafka: kafka)
            config.kafka["group.id"] = "http-gateway-tests"
            config.kafka["session.timeout.ms"] = "6000"
            config.kafka["heartbeat.interval.ms"] = "500"
            let running = try Worker(configuration: config, engine: try RuleLibrary.load(path: rules), logger: .silent)
            worker = running
            let done = workerDone
            Thread { try? running.run(); done.signal() }.start()
            // The first group join takes about 3 s alone, far longer beside the whole suite on two cores.
            let deadline = Date().addingTimeInterval(90)
            while running.assignedPartitions.isEmpty && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        } else {
            worker = nil
        }
        gateway = QuoteGateway(configuration: .init(kafka: kafka))
        var configuration = QuoteHTTPGateway.Configuration(listen: HTTPListenAddress(host: "127.0.0.1", port: 0))
        // The longest wait by default: the whole suite on two cores can slow a worker's answer past
        // 10 s. The tests of deadlines send their own Request-Timeout.
        configuration.defaultTimeout = configuration.maxTimeout
        configure(&configuration)
        let book = logBook
        http = try QuoteHTTPGateway(configuration: configuration, gateway: gateway) { level, message, fields in
            book.lines.withLock { $0.append("\(level) \(message) \(fields)") }
        }
        try await http.start()
        if withWorker { try await warmUp() }
    }

    /// Waits until the worker answers a call end to end (its first batch can be slow under load),
    /// on sessions of its own, so that the tests' calls meet a worker that is answering.
    private func warmUp() async throws {
        let deadline = Date().addingTimeInterval(90)
        var attempt = 0
        while Date() < deadline {
            attempt += 1
            let result = try await Curl.call(url(session: "warm-up-\(attempt)"), body: Bodies.quote(), options: curlOptions)
            if result.status == 200 { return }
        }
        Issue.record("the worker answered no warm-up call within 90 s (\(attempt) tried)")
    }

    /// Once a call is in flight, `body`; both at `.high`, so that `body` comes within that call's
    /// deadline: in a full run the test's own task can wait longer than that for a thread of the
    /// default priority, which the suite's synchronous tests hold.
    func onceACallIsInFlight<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task(priority: .high) {
            while self.http.metrics.inFlight < 1 { try await Task.sleep(for: .milliseconds(10)) }
            return try await body()
        }.value
    }

    var base: String { "\(http.scheme)://127.0.0.1:\(http.address.port)" }

    func url(session: String) -> String { "\(base)/v1/sessions/\(session)/quote" }

    func finalURL(session: String) -> String { "\(base)/v1/sessions/\(session)/final" }

    func stop() async {
        await http.drain(grace: .seconds(1))
        gateway.close()
        // Polled rather than waited for: a blocked thread of the cooperative pool (two on two
        // cores) would hold up every other test's async work while the worker drains.
        if let worker {
            worker.stop()
            let deadline = ContinuousClock.now + .seconds(60)
            while workerDone.wait(timeout: .now()) == .timedOut {
                guard ContinuousClock.now < deadline else {
                    Issue.record("the worker did not stop within 60 s of its stop")
                    return
                }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// The `update` member of the reply the worker published for a session's sequence, as JSON.
    func publishedUpdate(session: String, sequence: Int64) throws -> JSONValue? {
        for value in try records(on: Topics.defaultQuoteReplies, until: { value in
            (try? QuoteReply.decode(value)).map { $0.sessionID == session && $0.sequence == sequence } ?? false
        }) {
            guard let reply = try? QuoteReply.decode(value), reply.sessionID == session, reply.sequence == sequence,
                  case .object(let object) = try JSONReader().read(value) else { continue }
            return object["update"]
        }
        return nil
    }

    /// The values of the events the gateway produced for a session, as they lie on the input topic.
    func producedEvents(session: String, count: Int) throws -> [[UInt8]] {
        var found = 0
        return try records(on: Topics.defaultAddressChanged, until: { value in
            if (try? AddressChangeEvent.decode(unkeyed: value).get())?.sessionID == session { found += 1 }
            return found >= count
        }).filter { (try? AddressChangeEvent.decode(unkeyed: $0).get())?.sessionID == session }
    }

    /// Every record of `topic` from its beginning, read until `done` says so (or 10 s).
    private func records(on topic: String, until done: ([UInt8]) -> Bool) throws -> [[UInt8]] {
        var config = kafka
        config["group.id"] = "reader-\(UUID().uuidString)"
        let reader = try KafkaConsumer(configuration: config) { _ in }
        defer { reader.close() }
        var start: [KafkaTopicPartition: Int64] = [:]
        for p in 0..<Int32(try reader.partitionCount(topic)) { start[KafkaTopicPartition(topic, p)] = 0 }
        try reader.assign(start)
        let deadline = Date().addingTimeInterval(10)
        var values: [[UInt8]] = []
        while Date() < deadline {
            for message in reader.poll(maxMessages: 1_000, timeoutMs: 50) {
                values.append(message.value)
                if done(message.value) { return values }
            }
        }
        return values
    }
}

final class LogBook: Sendable {
    let lines = Mutex<[String]>([])
}

/// Bodies for the example rules (ACME, USD).
enum Bodies {
    static func quote(trigger: String = "address_changed", currency: String = "USD", country: String = "US",
                      state: String = "CA", postalCode: String = "95014", quantity: Int = 2, sequence: Int64? = nil) -> [UInt8] {
        let sequenceMember = sequence.map { "\"sequence\":\($0)," } ?? ""
        return Array("""
        {\(sequenceMember)"merchant":"acme","payment_method_type":"APPLE_PAY","trigger":"\(trigger)","currency":"\(currency)",
         "shipping_address":{"city":"Cupertino","state":"\(state)","postal_code":"\(postalCode)","country_code":"\(country)"},
         "cart":{"items":[{"id":"sku-1","label":"T-shirt","quantity":\(quantity),
                           "unit_amount":{"currency":"\(currency)","value":"25.00"},"tax_category":"apparel","weight_grams":300}]},
         "selected_shipping_method_id":"standard"}
        """.utf8)
    }
}

extension Bodies {
    /// A `/final` body: the full address with its street line (which must never reach Kafka), the
    /// selected method and the total the sheet showed.
    static func final(postalCode: String, selected: String = "standard", shownTotal: String, country: String = "US",
                      state: String = "CA", currency: String = "USD", sequence: Int64? = nil) -> [UInt8] {
        let sequenceMember = sequence.map { "\"sequence\":\($0)," } ?? ""
        return Array("""
        {\(sequenceMember)"merchant":"acme","payment_method_type":"APPLE_PAY","currency":"\(currency)",
         "shipping_address":{"address_lines":["1 Infinite Loop","Building 4"],"city":"Cupertino","state":"\(state)",
                             "postal_code":"\(postalCode)","country_code":"\(country)"},
         "cart":{"items":[{"id":"sku-1","label":"T-shirt","quantity":2,
                           "unit_amount":{"currency":"\(currency)","value":"25.00"},"tax_category":"apparel","weight_grams":300}]},
         "selected_shipping_method_id":"\(selected)","shown_total":{"currency":"\(currency)","value":"\(shownTotal)"}}
        """.utf8)
    }
}

/// One HTTP exchange made by Debian's curl, as a merchant's backend would make it.
struct CurlResult: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    /// From curl's start to its exit.
    var elapsed: Duration
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSONValue? { try? JSONReader().read(body) }
}

enum Curl {
    static var path: String? {
        ["/usr/bin/curl", "/bin/curl", "/usr/local/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs curl without holding a thread of Swift's cooperative pool while it runs, watched from a
    /// task of `.high` priority: in a full run the suite's synchronous tests hold every thread of the
    /// default priority, and the call's `elapsed` must not count the wait for one.
    static func call(_ url: String, method: String = "POST", body: [UInt8]? = nil, headers: [String: String] = [:],
                     options: [String] = []) async throws -> CurlResult {
        try await Task(priority: .high) {
            try await run(url, method: method, body: body, headers: headers, options: options)
        }.value
    }

    private static func run(_ url: String, method: String, body: [UInt8]?, headers: [String: String],
                            options: [String]) async throws -> CurlResult {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("httpgw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var args = ["-sS", "-X", method, "-o", dir.appendingPathComponent("body").path, "-D", dir.appendingPathComponent("headers").path,
                    "-w", "%{http_code}", "--max-time", "60"]
        // No `Expect: 100-continue` unless the call asks for it (curl adds one to large bodies).
        if !headers.keys.contains(where: { $0.lowercased() == "expect" }) { args += ["-H", "Expect:"] }
        if let body {
            try Data(body).write(to: dir.appendingPathComponent("request"))
            args += ["-H", "Content-Type: application/json", "--data-binary", "@" + dir.appendingPathComponent("request").path]
        }
        for (name, value) in headers { args += ["-H", "\(name): \(value)"] }
        args += options
        args.append(url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path ?? "/usr/bin/curl")
        process.arguments = args
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let began = ContinuousClock.now
        try process.run()
        // Polled rather than awaited through terminationHandler: nothing here hangs on a callback
        // that might not come, and curl's --max-time bounds the loop.
        while process.isRunning { try? await Task.sleep(for: .milliseconds(5)) }
        let elapsed = ContinuousClock.now - began
        let code = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let body = (try? Data(contentsOf: dir.appendingPathComponent("body"))).map { Array($0) } ?? []
        var headers: [String: String] = [:]
        let head = (try? String(contentsOf: dir.appendingPathComponent("headers"), encoding: .utf8)) ?? ""
        for line in head.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return CurlResult(status: Int(code) ?? 0, headers: headers, body: body, elapsed: elapsed)
    }
}
