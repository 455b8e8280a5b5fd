import Foundation
import Kafka
import QuoteContract
import Synchronization

/// One record of the dead-letter topic, as `shipquote dlq replay` sees it: the original key and
/// bytes, the original headers, and the worker's verdict (`error-code`, where it came from).
public struct DeadLetter: Sendable {
    /// Its offset on the dead-letter topic's partition 0.
    public let offset: Int64
    public let key: [UInt8]?
    public let value: [UInt8]
    public let headers: [KafkaHeader]

    public init(_ message: KafkaMessage) {
        offset = message.offset
        key = message.key
        value = message.value
        headers = message.headers
    }

    /// The last header of that name, as text (the worker writes its own headers last).
    public func header(_ name: String) -> String? {
        headers.last(where: { $0.name == name })?.value.map { String(decoding: $0, as: UTF8.self) }
    }

    public var errorCode: String? { header(ContractHeader.errorCode) }
    public var sourceTopic: String? { header(ContractHeader.sourceTopic) }
    public var sourcePartition: String? { header(ContractHeader.sourcePartition) }
    public var sourceOffset: String? { header(ContractHeader.sourceOffset) }
    /// The record's key: the session id the gateway keyed the event with (a dead letter keeps it).
    public var sessionID: String? { key.map { String(decoding: $0, as: UTF8.self) } }
    /// The dead-letter offset this record was itself replayed from, when a replay failed again.
    public var replayedFrom: String? { header(DeadLetterReplay.replayedFromHeader) }

    /// What a dry run lists: never the value.
    public var summary: String {
        var line = "dlq-offset=\(offset) error-code=\(errorCode ?? "-") source=\(sourceTopic ?? "-")[\(sourcePartition ?? "-")]@\(sourceOffset ?? "-")"
        line += " session=\(sessionID ?? "-")"
        if let replayedFrom { line += " replayed-from-dlq-offset=\(replayedFrom)" }
        return line
    }

    /// The record to produce to the input topic: the original key and value, the original headers
    /// without the dead-letter headers (and without an earlier replay's marker), then
    /// `replayed-from-dlq-offset` with this record's offset.
    public func replayRecord(to topic: String) -> KafkaOutgoingMessage {
        let dropped = Set(DeadLetterReplay.deadLetterHeaderNames + [DeadLetterReplay.replayedFromHeader])
        let kept = headers.filter { !dropped.contains($0.name) }
        return KafkaOutgoingMessage(topic: topic, key: key, value: value,
                                    headers: kept + [KafkaHeader(DeadLetterReplay.replayedFromHeader, String(offset))])
    }
}

/// Which dead letters to replay. Every condition given must hold; none given selects everything read.
public struct DeadLetterSelection: Sendable, Equatable {
    /// `error-code` values; empty: any.
    public var errorCodes: Set<String> = []
    /// Offsets on partition 0, both ends included.
    public var fromOffset: Int64?
    public var toOffset: Int64?
    /// Record keys (session ids); empty: any.
    public var sessions: Set<String> = []

    public init(errorCodes: Set<String> = [], fromOffset: Int64? = nil, toOffset: Int64? = nil, sessions: Set<String> = []) {
        self.errorCodes = errorCodes
        self.fromOffset = fromOffset
        self.toOffset = toOffset
        self.sessions = sessions
    }

    public func matches(_ letter: DeadLetter) -> Bool {
        if let fromOffset, letter.offset < fromOffset { return false }
        if let toOffset, letter.offset > toOffset { return false }
        if !errorCodes.isEmpty, !errorCodes.contains(letter.errorCode ?? "") { return false }
        if !sessions.isEmpty, !sessions.contains(letter.sessionID ?? "") { return false }
        return true
    }
}

/// Reads the dead-letter topic and produces selected records back to the input topic.
public enum DeadLetterReplay {
    /// Set on every replayed record: the dead-letter offset it was copied from. Not one of the
    /// contract's required headers; the worker ignores it and, when the record fails again, keeps it
    /// on the new dead letter (the worker copies an event's headers), so a loop shows.
    public static let replayedFromHeader = "replayed-from-dlq-offset"
    /// The headers the worker adds to a dead letter; a replay leaves them out.
    public static let deadLetterHeaderNames = [ContractHeader.errorCode, ContractHeader.errorMessage, ContractHeader.sourceTopic,
                                               ContractHeader.sourcePartition, ContractHeader.sourceOffset]
    /// The dead-letter topic has one partition (docs/contract.md).
    public static let partition: Int32 = 0
    /// More matches than this need `--yes` to be produced.
    public static let confirmationThreshold = 10

    public struct ReadError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The dead letters between `from` and `to` (both included; nil: the partition's start and its
    /// high watermark when the read begins) that `selection` matches. A hand assignment with a
    /// group id that is never joined: nothing is committed. Records written while it reads (a
    /// replay dead-lettered again) are past the end it fixed at the start, so a replay never feeds itself.
    public static func read(topic: String, selection: DeadLetterSelection, kafka: KafkaConfiguration,
                            timeout: Duration = .seconds(30)) throws -> (read: Int, matched: [DeadLetter]) {
        var config = kafka.scoped(to: .consumer)
        config["group.id"] = "shipquote-dlq-replay"
        config["group.instance.id"] = nil
        config["enable.auto.commit"] = "false"
        config["enable.auto.offset.store"] = "false"
        let reader = try KafkaConsumer(configuration: config) { _ in }
        defer { reader.close() }
        let tp = KafkaTopicPartition(topic, partition)
        let marks = try reader.watermarks(tp)
        let start = max(selection.fromOffset ?? marks.low, marks.low)
        let end = min((selection.toOffset ?? .max - 1) + 1, marks.high)
        guard start < end else { return (0, []) }
        try reader.assign([tp: start])
        defer { reader.unassign() }
        var read = 0
        var matched: [DeadLetter] = []
        let deadline = ContinuousClock.now + timeout
        while (reader.positions([tp])[tp] ?? start) < end {
            guard ContinuousClock.now < deadline else {
                throw ReadError(description: "reading \(tp) from \(start) to \(end) took longer than \(timeout)")
            }
            for message in reader.poll(maxMessages: 10_000, timeoutMs: 100) where message.offset >= start && message.offset < end {
                read += 1
                let letter = DeadLetter(message)
                if selection.matches(letter) { matched.append(letter) }
            }
        }
        return (read, matched)
    }

    /// Where each replayed record landed, and what could not be produced, by dead-letter offset.
    public struct Outcome: Sendable {
        public var delivered: [(dlqOffset: Int64, partition: Int32, offset: Int64)] = []
        public var failed: [(dlqOffset: Int64, error: String)] = []
    }

    /// Produces each letter's replay record to `inputTopic` with the contract's partitioner and an
    /// idempotent producer, and waits for every delivery report.
    public static func replay(_ letters: [DeadLetter], to inputTopic: String, kafka: KafkaConfiguration,
                              timeout: Duration = .seconds(30)) throws(KafkaError) -> Outcome {
        var config = kafka.scoped(to: .producer)
        config[KeyPartitioning.property] = KeyPartitioning.librdkafkaName
        config["enable.idempotence"] = "true"
        // A dead letter carries an event of up to 1 MiB plus headers, as the worker's producer allows.
        config.setDefault("message.max.bytes", "2097152")
        let producer = try KafkaProducer(configuration: config)
        let reports = Mutex<[Int64: KafkaDeliveryReport]>([:])
        let done = DispatchGroup()
        var outcome = Outcome()
        for letter in letters {
            done.enter()
            do {
                try producer.send(letter.replayRecord(to: inputTopic)) { report in
                    reports.withLock { $0[letter.offset] = report }
                    done.leave()
                }
            } catch {
                done.leave()
                outcome.failed.append((letter.offset, "\(error)"))
            }
        }
        _ = done.wait(timeout: .now() + .seconds(Int(timeout.components.seconds)))
        // What is still undelivered is purged: its completion runs with the purge error.
        producer.close(timeoutMs: 1_000)
        done.wait()
        let all = reports.withLock { $0 }
        for letter in letters {
            switch all[letter.offset] {
            case .delivered(let partition, let offset)?: outcome.delivered.append((letter.offset, partition, offset))
            case .failed(let error)?: outcome.failed.append((letter.offset, "\(error)"))
            case nil: break  // refused when queued: counted above
            }
        }
        return outcome
    }
}
