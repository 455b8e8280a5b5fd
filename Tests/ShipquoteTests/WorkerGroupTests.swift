import Foundation
import Kafka
import QuoteContract
import ShippingRules
import Synchronization
import Testing

/// the contract's sequence check with separate worker processes on `shipquote broker`, with the
/// product's default group timings: three workers in one group, one killed with SIGKILL mid-stream
/// and restarted, another joining late.
@Suite struct WorkerGroupTests {
    /// A `shipquote run` process whose stderr (JSON log lines) is read as it comes, so the pipe never fills.
    final class WorkerProcess: @unchecked Sendable {
        let process: Process
        private let lock = NSLock()
        private var buffer = Data()
        private let drained = DispatchSemaphore(value: 0)

        init(bootstrap: String) throws {
            let (process, _, err) = try Binary.start([
                "run", "--bootstrap-servers", bootstrap, "--rules", Binary.exampleRules, "--log-level", "debug",
                // The product's group timings (no session or heartbeat flags): what a user runs.
                "--default-ttl", "0", "-X", "fetch.wait.max.ms=5", "-X", "statistics.interval.ms=0",
            ])
            self.process = process
            let handle = err.fileHandleForReading
            Thread { [self] in
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    lock.withLock { buffer.append(chunk) }
                }
                drained.signal()
            }.start()
        }

        /// Waits for the process to end and returns every log line it wrote.
        func finish() -> [String] {
            #expect(Binary.awaitExit(process, timeout: 60), "a worker did not stop on SIGTERM")
            if drained.wait(timeout: .now() + 30) == .timedOut { Issue.record("the worker's stderr did not end within 30 s of its exit") }
            return lock.withLock { String(decoding: buffer, as: UTF8.self) }.split(separator: "\n").map(String.init)
        }

        func kill9() { kill(process.processIdentifier, SIGKILL) }

        func hasLogged(_ text: String) -> Bool { lock.withLock { String(decoding: buffer, as: UTF8.self).contains(text) } }

        func awaitLog(_ text: String, timeout: TimeInterval) {
            let deadline = Date().addingTimeInterval(timeout)
            while !hasLogged(text) && Date() < deadline { usleep(50_000) }
        }
        func terminate() { process.terminate() }
    }

    struct Outcome: Hashable { let session: String; let sequence: Int64 }

    @Test func threeWorkersOneKilledAndOneLateStillAnswerEveryLatestSequenceAndNeverAnOlderOneAfter() throws {
        let (broker, brokerOut, _) = try Binary.start(["broker", "--topic", "shipping.address-changed:8",
                                                       "--topic", "shipping.quote-replies:8", "--topic", "shipping.quote-dlq:1",
                                                       "--topic", "shipping.quote-state:8"])
        defer { Binary.stop(broker) }
        let bootstrap = try #require(Binary.firstLine(of: brokerOut, timeout: 20))

        var workers = [try WorkerProcess(bootstrap: bootstrap), try WorkerProcess(bootstrap: bootstrap)]
        // Both in the group before the first event, so the kill below hits a worker with work in flight.
        for w in workers { w.awaitLog("\"body\":\"partitions assigned\"", timeout: 30) }
        let producer = try KafkaProducer(configuration: KafkaConfiguration(["bootstrap.servers": bootstrap, "linger.ms": "5"]))
        defer { producer.close(timeoutMs: 2_000) }

        let sessions = (0..<2_000).map { "group-\($0)" }
        let perSession: Int64 = 10
        let now = Date()
        func event(_ session: String, _ sequence: Int64) -> KafkaOutgoingMessage {
            let e = AddressChangeEvent(eventID: "e-\(session)-\(sequence)", sessionID: session, sequence: sequence, merchant: "acme",
                                       paymentMethodType: "APPLE_PAY", trigger: .addressChanged, currency: .usd,
                                       shippingAddress: PartialAddress(city: "Cupertino", state: "CA", postalCode: "95014", countryCode: "US"),
                                       cart: Cart(subtotal: Money(minorUnits: 4_500, currency: .usd)), occurredAt: now)
            return KafkaOutgoingMessage(topic: "shipping.address-changed", key: Array(session.utf8), value: e.encode())
        }
        // Ten waves; in each, every session sends its next address, and one session in five sends
        // two at once (a burst of re-changes). The kill and the late join fall between waves.
        var sent = 0
        var sequenceOf = Dictionary(uniqueKeysWithValues: sessions.map { ($0, Int64(0)) })
        for wave in 0..<Int(perSession) {
            var records: [KafkaOutgoingMessage] = []
            for (i, s) in sessions.enumerated() where sequenceOf[s]! < perSession {
                let count: Int64 = (i + wave) % 5 == 0 ? 2 : 1
                for _ in 0..<count where sequenceOf[s]! < perSession {
                    sequenceOf[s]! += 1
                    records.append(event(s, sequenceOf[s]!))
                }
            }
            let group = DispatchGroup()
            for r in records { group.enter(); try producer.send(r) { _ in group.leave() } }
            group.wait()
            sent += records.count
            if wave == 3 {
                workers[0].kill9()
                workers.append(try WorkerProcess(bootstrap: bootstrap))  // restarted
            }
            if wave == 6 { workers.append(try WorkerProcess(bootstrap: bootstrap)) }  // joins late
            usleep(300_000)
        }
        // Whatever is left for the waves that ended early.
        var rest: [KafkaOutgoingMessage] = []
        for s in sessions { while sequenceOf[s]! < perSession { sequenceOf[s]! += 1; rest.append(event(s, sequenceOf[s]!)) } }
        for r in rest { try producer.send(r) { _ in } }
        producer.flush(timeoutMs: 10_000)
        sent += rest.count
        #expect(sent == 20_000)

        // Read replies until every session's last sequence is answered.
        let reader = try KafkaConsumer(configuration: KafkaConfiguration([
            "bootstrap.servers": bootstrap, "group.id": "verifier", "fetch.wait.max.ms": "5"])) { _ in }
        var start: [KafkaTopicPartition: Int64] = [:]
        for p in 0..<Int32(8) { start[KafkaTopicPartition("shipping.quote-replies", p)] = 0 }
        try reader.assign(start)
        var replies: [String: [Int64]] = [:]
        var answeredLast = Set<String>()
        let deadline = Date().addingTimeInterval(120)
        while answeredLast.count < sessions.count && Date() < deadline {
            for record in reader.poll(maxMessages: 5_000, timeoutMs: 100) {
                let reply = try QuoteReply.decode(record.value)
                replies[reply.sessionID, default: []].append(reply.sequence)
                if reply.sequence == perSession { answeredLast.insert(reply.sessionID) }
            }
        }
        reader.close()
        for w in workers.dropFirst() { w.terminate() }
        let logs = workers.map { $0.finish() }
        for (i, w) in workers.enumerated().dropFirst() {
            #expect(w.process.terminationStatus == 0, "worker \(i) exited \(w.process.terminationStatus)")
        }

        #expect(answeredLast.count == sessions.count, "sessions without an answer to their last address: \(sessions.count - answeredLast.count)")
        var older = 0
        for (_, sequences) in replies where sequences != sequences.sorted() { older += 1 }
        #expect(older == 0, "sessions where an older answer was published after a newer one: \(older)")

        // Every event ends in a reply or a drop with its reason, in some worker's log.
        var accounted = Set<Outcome>()
        var reasons: [String: Int] = [:]
        for line in logs.joined() where line.contains("\"body\":\"replied\"") || line.contains("\"body\":\"dropped\"") {
            guard case .object(let o)? = try? JSONReader().read(line),
                  case .string(let s)? = o["session_id"], case .number(let q)? = o["sequence"], let seq = Int64(q) else { continue }
            accounted.insert(Outcome(session: s, sequence: seq))
            if case .string(let reason)? = o["reason"] { reasons[reason, default: 0] += 1 }
        }
        let missing = sessions.flatMap { s in (1...perSession).map { Outcome(session: s, sequence: $0) } }.filter { !accounted.contains($0) }
        #expect(missing.isEmpty, "events neither answered nor dropped: \(missing.count), e.g. \(missing.prefix(3))")
        let published = replies.values.reduce(0) { $0 + $1.count }
        let failedCommits = logs.joined().filter { $0.contains("\"body\":\"commit failed; will retry\"") }
        let restores = logs.joined().filter { $0.contains("\"body\":\"sequence state restored\"") }
        print("worker group: \(sent) events, \(published) replies published, drops by reason \(reasons.sorted { $0.key < $1.key }), "
              + "\(failedCommits.count) commits retried (\(failedCommits.prefix(2))), \(restores.count) restores")
    }
}
