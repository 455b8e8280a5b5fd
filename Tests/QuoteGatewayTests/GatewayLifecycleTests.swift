import Foundation
import Kafka
import KafkaTesting
import QuoteContract
@testable import QuoteGateway
import Synchronization
import Testing

/// What the gateway starts, reports and leaves behind: nothing before first use, every client
/// error to the caller, no timer after an answered call.
@Suite struct GatewayLifecycleTests {
    static func setUp() throws -> (EmbeddedKafkaCluster, KafkaConfiguration) {
        let cluster = try EmbeddedKafkaCluster(topics: [KafkaTopicSpec(Topics.defaultAddressChanged, partitions: 2),
                                                        KafkaTopicSpec(Topics.defaultQuoteReplies, partitions: 2)])
        return (cluster, KafkaConfiguration(["bootstrap.servers": cluster.bootstrapServers, "fetch.wait.max.ms": "5"]))
    }

    /// Polls `condition` for up to `seconds`. The bounds are wide: in the full suite on two cores,
    /// synchronous tests hold the async threads for a minute or more.
    static func eventually(_ seconds: Double, _ condition: () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return condition()
    }

    @Test func makingAGatewayMakesNoClientUntilFirstUse() async {
        // Nothing is made in init, so a bad property shows only when the gateway starts.
        let gateway = QuoteGateway(configuration: .init(kafka: KafkaConfiguration(["no.such.property": "1"])))
        defer { gateway.close() }
        do {
            try await gateway.start()
            Issue.record("an unknown property must fail the start")
        } catch {
            guard case .kafka(let kafka) = error else { Issue.record("got \(error)"); return }
            #expect(kafka.message.contains("no.such.property=1"))
        }
    }

    @Test func answeredCallsLeaveNoTimerBehind() async throws {
        let (cluster, kafka) = try Self.setUp()
        let gateway = QuoteGateway(configuration: .init(kafka: kafka))
        let replier = try KafkaProducer(configuration: kafka)
        defer { gateway.close(); replier.close(timeoutMs: 1_000); withExtendedLifetime(cluster) {} }
        let sessions = (0..<20).map { "t\($0)" }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for s in sessions {
                group.addTask { _ = try await gateway.quote(LatestWinsTests.event(s, 1), defaultWait: .seconds(900)) }
            }
            #expect(try await Self.eventually(300) { gateway.outstandingTimers == sessions.count })
            for s in sessions { try replier.send(LatestWinsTests.reply(s, 1)) { _ in } }
            try await group.waitForAll()
        }
        // Each answered call cancelled its 900 s timer; cancelled timers end at once.
        #expect(try await Self.eventually(300) { gateway.outstandingTimers == 0 }, "\(gateway.outstandingTimers) timers left")
    }

    @Test func aCancelledCallerEndsItsWaitAndItsTimer() async throws {
        let (cluster, kafka) = try Self.setUp()
        let gateway = QuoteGateway(configuration: .init(kafka: kafka))
        defer { gateway.close(); withExtendedLifetime(cluster) {} }
        let call = Task { try await gateway.quote(LatestWinsTests.event("gone", 1), defaultWait: .seconds(900)) }
        #expect(try await Self.eventually(300) { gateway.outstandingTimers == 1 })
        call.cancel()
        do {
            _ = try await call.value
            Issue.record("a cancelled call must throw")
        } catch {
            #expect(error as? GatewayError == .cancelled)
        }
        #expect(try await Self.eventually(300) { gateway.outstandingTimers == 0 })
    }

    @Test func clientErrorsAndLogsReachTheCallersHandlers() async throws {
        let (cluster, kafka) = try Self.setUp()
        let errors = Mutex<[KafkaError]>([])
        let logs = Mutex<[KafkaLogRecord]>([])
        let gateway = QuoteGateway(configuration: .init(kafka: kafka),
                                   log: { record in logs.withLock { $0.append(record) } },
                                   onClientError: { error in errors.withLock { $0.append(error) } })
        defer { gateway.close(); withExtendedLifetime(cluster) {} }
        try await gateway.start()
        cluster.setBrokerDown(1)
        #expect(try await Self.eventually(300) { !errors.withLock { $0 }.isEmpty }, "no client error reported")
        #expect(try await Self.eventually(300) { !logs.withLock { $0 }.isEmpty }, "no librdkafka log line")
    }

    @Test func aFatalClientErrorFailsPendingAndLaterCalls() async throws {
        let (cluster, kafka) = try Self.setUp()
        let reported = Mutex<[KafkaError]>([])
        let gateway = QuoteGateway(configuration: .init(kafka: kafka), onClientError: { error in reported.withLock { $0.append(error) } })
        defer { gateway.close(); withExtendedLifetime(cluster) {} }
        let call = Task { try await gateway.quote(LatestWinsTests.event("doomed", 1), defaultWait: .seconds(900)) }
        #expect(try await Self.eventually(300) { gateway.outstandingTimers == 1 })
        // As librdkafka reports a fatal idempotent-producer error (code _FATAL).
        let fatal = KafkaError(code: -150, context: "test: producer fenced", isFatal: true)
        gateway.clientReported(fatal)
        #expect(reported.withLock { $0 } == [fatal])
        do {
            _ = try await call.value
            Issue.record("the pending call must fail")
        } catch {
            #expect(error as? GatewayError == .clientFailed(fatal))
        }
        await #expect(throws: GatewayError.clientFailed(fatal)) {
            _ = try await gateway.quote(LatestWinsTests.event("later", 1))
        }
        #expect(try await Self.eventually(300) { gateway.outstandingTimers == 0 })
    }
}
