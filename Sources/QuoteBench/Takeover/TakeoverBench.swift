import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import Synchronization

/// `shipquote bench takeover`: how long a crashed worker's partitions go unanswered. Starts
/// `shipquote broker` (the contract's topics, `partitions` each) and `workers` `shipquote run`
/// processes with the product's group timings, produces events at a fixed rate, SIGKILLs the
/// worker owning the most partitions once `killAfter` of the events are out, and measures from the
/// kill to the first reply on each partition it owned, and to every session's latest address
/// answered; any older reply after a newer one of a session is counted (must be none).
public enum TakeoverBench {
    public struct Report {
        public let lines: [String]
        /// Every partition answered again within the target, every latest address answered, no older reply after a newer one.
        public let passed: Bool
    }

    /// How long a worker may take to stop after SIGTERM (its shutdown grace is 10 s) before it is killed.
    static let stopBound: Double = 20

    public static func run(_ settings: TakeoverSettings, say: (String) -> Void) throws -> Report {
        let topics = Topics.defaults
        // Each child stops by itself should the bench die without stopping it (SIGKILL).
        var brokerArguments = ["broker", "--exit-with-parent"]
        for (name, n) in [(topics.addressChanged, settings.partitions), (topics.quoteReplies, settings.partitions),
                          (topics.deadLetters, 1), (topics.quoteState, settings.partitions)] {
            brokerArguments += ["--topic", "\(name):\(n)"]
        }
        let bootstrapLine = Mutex<String?>(nil)
        let broker = try ChildProcess(name: "broker", executable: settings.executable, arguments: brokerArguments) { isError, line in
            if !isError { bootstrapLine.withLock { if $0 == nil { $0 = line } } }
        }
        var workers: [ChildProcess] = []
        defer {
            let killed = ChildProcess.stop(workers.filter(\.isRunning), within: stopBound) + ChildProcess.stop([broker], within: 5)
            if !killed.isEmpty { say("killed (SIGKILL) after their stop bound: \(killed.joined(separator: ", "))") }
        }
        let brokerDeadline = uptimeNanoseconds() + 20_000_000_000
        while bootstrapLine.withLock({ $0 }) == nil && broker.isRunning && uptimeNanoseconds() < brokerDeadline { usleep(20_000) }
        guard let bootstrap = bootstrapLine.withLock({ $0 }), bootstrap.hasPrefix("127.0.0.1:") else {
            throw BenchError(description: "takeover: the broker printed no 127.0.0.1 address within 20 s")
        }
        say("broker at \(bootstrap); starting \(settings.workers) workers with the default group settings")

        let runArguments = ["run", "--bootstrap-servers", bootstrap, "--rules", URL(fileURLWithPath: settings.rulesPath).standardizedFileURL.path,
                            "--log-level", "info", "--statistics-interval", "0", "--exit-with-parent"] + settings.kafkaAssignments.flatMap { ["-X", $0] }
        let logs = (0..<settings.workers).map { _ in SharedWorkerLog(inputTopic: topics.addressChanged) }
        for i in 0..<settings.workers {
            workers.append(try ChildProcess(name: "worker \(i)", executable: settings.executable, arguments: runArguments,
                                            onLine: logs[i].lineHandler))
        }
        func owned() -> [Set<Int32>] { logs.map(\.current.owned) }
        // Every member owns partitions (or all are taken when there are more members than partitions).
        let joinDeadline = uptimeNanoseconds() + 60_000_000_000
        func settled() -> Bool {
            let o = owned()
            return o.reduce(0) { $0 + $1.count } == settings.partitions
                && o.filter({ !$0.isEmpty }).count == min(settings.workers, settings.partitions)
        }
        while !settled() && uptimeNanoseconds() < joinDeadline {
            if let dead = workers.first(where: { !$0.isRunning }) { throw BenchError(description: "takeover: \(dead.name) exited at start") }
            usleep(50_000)
        }
        guard settled() else { throw BenchError(description: "takeover: the workers did not share every partition within 60 s") }

        var kafka = KafkaConfiguration(["bootstrap.servers": bootstrap, "auto.offset.reset": "earliest"])
        try kafka.apply(assignments: settings.kafkaAssignments)
        let plan = LoadPlan(sessions: settings.sessions, events: settings.events, burstFraction: settings.burstFraction)
        let ledger = ReplyLedger(plan: plan)
        let arrivals = Mutex<[ReplyArrival]>([])
        arrivals.withLock { $0.reserveCapacity(plan.events.count) }
        let reader = try ReplyReader(kafka: kafka, topic: topics.quoteReplies, ledger: ledger) { a in arrivals.withLock { $0.append(a) } }
        reader.start()
        defer { reader.stop() }
        let producer = try KafkaProducer(configuration: BenchPhase.generatorKafka(kafka))
        defer { producer.close(timeoutMs: 5_000) }
        try WarmUp().run("takeover", producer: producer, topic: topics.addressChanged, partitions: settings.partitions, merchant: nil,
                         ledger: ledger, stopped: { workers.first { !$0.isRunning }.map { "\($0.name) exited" } },
                         state: { owned().enumerated().map { "worker \($0.offset) owns \($0.element.sorted())" }.joined(separator: ", ") })

        let before = owned()
        let victim = before.indices.max { (before[$0].count, -$0) < (before[$1].count, -$1) }!
        let victimPartitions = before[victim]
        say("ownership: " + before.enumerated().map { "worker \($0.offset) \($0.element.sorted())" }.joined(separator: ", ")
            + "; worker \(victim) will be killed after \(Int(Double(plan.events.count) * settings.killAfter)) events")

        let now = Date()
        let payloads = plan.events.map { BenchEvents.encode($0, merchant: nil, occurredAt: now) }
        let productionLimit = Double(plan.events.count) / Double(settings.rate) * 2 + 30
        let generator = LoadGenerator(producer: producer, topic: topics.addressChanged, plan: plan, payloads: payloads, ledger: ledger,
                                      rate: .fixed(settings.rate), duration: productionLimit)
        generator.start()
        let killAfter = Int(Double(plan.events.count) * settings.killAfter)
        let killDeadline = uptimeNanoseconds() + UInt64(productionLimit * 1e9)
        while generator.produced.count < killAfter && generator.stoppedAt == 0 && uptimeNanoseconds() < killDeadline { usleep(1_000) }
        let killedAt = uptimeNanoseconds()
        workers[victim].kill9()
        say("worker \(victim) killed (SIGKILL) after \(generator.produced.count) events; it owned partitions \(victimPartitions.sorted())")

        // Until every session's latest address is answered, or the drain time after the last event is up.
        var drainDeadline = UInt64.max
        var answeredAt: UInt64?
        let hardDeadline = uptimeNanoseconds() + UInt64((productionLimit + settings.drainTimeout) * 1e9)
        while uptimeNanoseconds() < min(drainDeadline, hardDeadline) {
            usleep(20_000)
            if drainDeadline == .max, generator.stoppedAt != 0 { drainDeadline = uptimeNanoseconds() + UInt64(settings.drainTimeout * 1e9) }
            let tally = ledger.tally()
            if generator.stoppedAt != 0 && tally.missing == 0 { answeredAt = tally.lastReplyAt; break }
        }
        generator.awaitProduced()
        usleep(500_000)   // a late older reply must still be seen
        let tally = ledger.tally()
        let after = owned()

        let first = TakeoverTimeline.firstReplies(arrivals.withLock { $0 }, killedAt: killedAt, partitions: victimPartitions)
        var lines = ["shipquote bench takeover: embedded broker (shipquote broker), \(settings.partitions) partitions, "
                     + "\(settings.workers) worker processes with the default group settings, -X \(settings.kafkaAssignments.joined(separator: " -X "))",
                     "load: \(generator.produced.count) events over \(settings.sessions) sessions at \(settings.rate)/s; "
                     + "worker \(victim) SIGKILLed after \(killAfter) events, owning partitions \(victimPartitions.sorted())", ""]
        var allWithin = true
        for p in victimPartitions.sorted() {
            let newOwner = after.indices.first { $0 != victim && after[$0].contains(p) }.map { "worker \($0)" } ?? "no owner logged"
            if let seconds = first[p] {
                allWithin = allWithin && seconds <= settings.target
                lines.append(String(format: "partition %d: first reply %.2f s after the kill (now %@)", p, seconds, newOwner))
            } else {
                allWithin = false
                lines.append("partition \(p): NO reply to an event sent after the kill")
            }
        }
        // Where the time went: when each survivor's group membership changed, as its log says.
        for (i, log) in logs.enumerated() where i != victim {
            let l = log.current
            func since(_ t: UInt64) -> String { t > killedAt ? String(format: "%.2f s", Double(t - killedAt) / 1e9) : "before the kill" }
            lines.append("worker \(i): last revoked \(since(l.revokedAt)), last assigned \(since(l.assignedAt)) after the kill; "
                         + "owns \(l.owned.sorted())")
        }
        let slowest = victimPartitions.compactMap { first[$0] }.max()
        if let answeredAt {
            lines.append(String(format: "every latest address answered %.2f s after the kill (%.2f s after the last event was produced)",
                                Double(answeredAt &- killedAt) / 1e9, Double(Int64(bitPattern: answeredAt &- generator.stoppedAt)) / 1e9))
        } else {
            lines.append("NOT every latest address answered: \(tally.missing) sessions waiting \(Int(settings.drainTimeout)) s after the last event")
        }
        lines.append("older reply after a newer one for a session: \(tally.staleReplies) (must be 0); "
                     + "second replies to one sequence (replays): \(tally.duplicateReplies); replies \(tally.replies)")
        let met = allWithin && !victimPartitions.isEmpty
        lines.append(String(format: "target: every partition answered again within %.0f s: %@%@", settings.target, met ? "met" : "NOT met",
                            slowest.map { String(format: " (slowest %.2f s)", $0) } ?? ""))
        return Report(lines: lines, passed: met && answeredAt != nil && tally.staleReplies == 0)
    }
}
