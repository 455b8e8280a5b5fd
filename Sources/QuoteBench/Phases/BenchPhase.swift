import Benchmarking
import Foundation
import Kafka
import QuoteContract
import ShippingRules
import Synchronization

/// One measurement: the plan's events through one system (ShipQuote or echo) at one rate, on
/// topics of its own, with a fresh consumer group and reader.
struct BenchPhase {
    enum System: String { case shipquote, echo }

    let name: String
    let system: System
    let rate: BenchSettings.Rate
    var round = 1

    struct Context {
        let settings: BenchSettings
        let broker: BenchBroker
        let plan: LoadPlan
        let rules: RuleLibrary
        let merchant: String?
        /// The rules' path as a worker process is given it (absolute: a process may start elsewhere).
        var rulesPath: String { URL(fileURLWithPath: settings.rulesPath).standardizedFileURL.path }
    }

    /// `shipquote-1000ps`, or with more than one round `shipquote-1000ps-r2`: the phase's topics
    /// are named after it, so each phase of a run has a name of its own.
    static func name(_ system: System, _ rate: BenchSettings.Rate, round: Int, of rounds: Int) -> String {
        let base = "\(system.rawValue)-\(rate.slug)"
        return rounds > 1 ? "\(base)-r\(round)" : base
    }

    func run(_ context: Context) throws -> PhaseResult {
        let settings = context.settings, broker = context.broker, plan = context.plan
        let topics = try broker.topics(for: name)
        let service = try makeService(context, topics: topics)
        defer { service.stop() }
        let ledger = ReplyLedger(plan: plan)
        let reader = try ReplyReader(kafka: broker.kafka, topic: topics.quoteReplies, ledger: ledger)
        reader.start()
        defer { reader.stop() }

        // The load starts once every partition has an owner (a group's first join takes ~3 s on the mock).
        let joinDeadline = uptimeNanoseconds() + 60_000_000_000
        while service.assignedPartitions < broker.partitions && service.failure == nil && uptimeNanoseconds() < joinDeadline { usleep(20_000) }
        if let failure = service.failure { throw BenchError(description: "\(name): a worker stopped: \(failure)") }
        guard service.assignedPartitions >= broker.partitions else { throw BenchError(description: "\(name): the workers did not get every partition within 60 s") }

        // Encoded before the clock starts: the generator only hands bytes to the producer.
        let now = Date()
        let payloads = plan.events.map { BenchEvents.encode($0, merchant: context.merchant, occurredAt: now) }
        let producer = try KafkaProducer(configuration: BenchPhase.generatorKafka(broker.kafka))
        defer { producer.close(timeoutMs: 5_000) }
        try warmUp(producer: producer, topic: topics.addressChanged, context: context, ledger: ledger, service: service)
        let generator = LoadGenerator(producer: producer, topic: topics.addressChanged, plan: plan, payloads: payloads,
                                      ledger: ledger, rate: rate, duration: settings.duration)
        let progress = ProgressBar(label: name, enabled: settings.progress)
        let cpuBefore = service.cpuSeconds()
        generator.start()

        // Done when every session's latest sent sequence is answered, or the drain time is up.
        var producing = true
        var drainDeadline = UInt64.max
        var tally = ledger.tally()
        while true {
            usleep(50_000)
            if producing, generator.stoppedAt != 0 {
                producing = false
                drainDeadline = uptimeNanoseconds() + UInt64(settings.drainTimeout * 1e9)
            }
            tally = ledger.tally()
            progress.update(done: tally.replies, of: plan.events.count,
                            detail: "replies, \(generator.produced.count) produced, \(tally.missing) sessions waiting")
            if !producing && tally.missing == 0 { break }
            if uptimeNanoseconds() > drainDeadline || service.failure != nil { break }
        }
        progress.finish()
        let cpuAfter = service.cpuSeconds()
        let completedAt = tally.lastReplyAt
        let timedOut = tally.missing > 0
        // Stragglers: a stale reply published late must still be seen, and the workers' counters settle.
        let produced = generator.produced.count
        let settleDeadline = uptimeNanoseconds() + 2_000_000_000
        repeat { usleep(100_000) } while service.counts().finished < produced && uptimeNanoseconds() < settleDeadline
        usleep(200_000)
        tally = ledger.tally()

        let samples = ledger.latencySamples()
        let elapsed = Double((completedAt > generator.startedAt ? completedAt : uptimeNanoseconds()) - generator.startedAt) / 1e9
        return PhaseResult(
            name: name, system: system.rawValue, rate: rate.description, round: round, planned: plan.events.count, produced: produced,
            produceRate: generator.produceRate, generatorWorstLag: generator.worstLag, seconds: elapsed,
            eventsPerSecond: elapsed > 0 ? Double(produced) / elapsed : 0,
            latency: LatencySummary(samples: samples), histogram: LogHistogram(samples: samples),
            replies: tally.replies, staleReplies: tally.staleReplies, duplicateReplies: tally.duplicateReplies,
            unknownReplies: tally.unknownReplies, missing: tally.missing, sessions: tally.sessionsSent,
            counts: service.counts(), timedOut: timedOut, failure: service.failure,
            cpu: cpuBefore.flatMap { before in cpuAfter.map { PhaseResult.CPU(seconds: $0 - before, scope: service.cpuScope) } })
    }

    /// The phase's workers: threads of this process, or (`--process`) processes of their own.
    private func makeService(_ context: Context, topics: Topics) throws -> BenchService {
        let settings = context.settings, kafka = context.broker.kafka
        if settings.processes, let executable = settings.executable {
            let arguments = switch system {
            case .shipquote: WorkerCommandLine.shipquote(kafka: kafka, topics: topics, group: QuoteWorkers.group(topics),
                                                         rules: context.rulesPath, maxBatch: settings.maxBatch)
            case .echo: WorkerCommandLine.echo(kafka: kafka, inputTopic: topics.addressChanged, replyTopic: topics.quoteReplies,
                                               group: EchoWorkers.group(topics.addressChanged), maxBatch: settings.maxBatch)
            }
            let started = WorkerCommandLine.wrapped(settings.workerWrapper, executable: executable, arguments: arguments)
            return try ProcessWorkers(system: system, count: settings.workers, executable: started.executable,
                                      arguments: started.arguments, inputTopic: topics.addressChanged)
        }
        return switch system {
        case .shipquote: try QuoteWorkers(count: settings.workers, kafka: kafka, topics: topics, engine: context.rules, maxBatch: settings.maxBatch)
        case .echo: try EchoWorkers(count: settings.workers, kafka: kafka, inputTopic: topics.addressChanged,
                                    replyTopic: topics.quoteReplies, maxBatch: settings.maxBatch)
        }
    }

    private func warmUp(producer: KafkaProducer, topic: String, context: Context, ledger: ReplyLedger, service: BenchService) throws {
        try WarmUp().run(name, producer: producer, topic: topic, partitions: context.broker.partitions, merchant: context.merchant,
                         ledger: ledger, stopped: { service.failure }, state: { service.state })
    }

    /// The generator stands for a gateway: it produces as a latency-bound service should
    /// (`linger.ms=1`, as the worker's producer), unless `-X` says otherwise.
    static func generatorKafka(_ kafka: KafkaConfiguration) -> KafkaConfiguration {
        var c = kafka.producerOnly
        c.setDefault("linger.ms", "1")
        c.setDefault(KeyPartitioning.property, KeyPartitioning.librdkafkaName)
        return c
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
}
