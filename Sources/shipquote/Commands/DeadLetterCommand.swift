import Foundation
import Kafka
import QuoteContract
import QuoteWorker

/// `shipquote dlq replay`: produces selected dead letters back to the input topic after a fix.
enum DeadLetterCommand {
    static let help = """
    usage: shipquote dlq replay --bootstrap-servers HOST:PORT [selection] [--dry-run | --yes] [flags]

      --error-code CODE      only dead letters with this error-code header (repeatable)
      --from-offset N        only from this offset of the dead-letter topic's partition 0 (included)
      --to-offset N          only up to this offset (included)
      --session ID           only records with this key, the session id (repeatable)
      --dry-run              list what would be replayed (offset, error code, source, session; never
                             the value) and produce nothing
      --yes                  needed to produce when more than \(DeadLetterReplay.confirmationThreshold) dead letters match
      --dlq-topic NAME       default \(Topics.defaultDeadLetters)
      --input-topic NAME     default \(Topics.defaultAddressChanged)
      --timeout SECONDS      for reading the dead letters and for the deliveries (default 30)
      -X key=value           a librdkafka property (repeatable)

    Each replayed record is the original key and value with the original headers, less the
    dead-letter headers, plus \(DeadLetterReplay.replayedFromHeader): its dead-letter offset. Produced
    with the contract's partitioner (murmur2_random) and an idempotent producer. The dead letters are
    read with a hand assignment (no group joined, nothing committed), up to the high watermark seen at
    the start. Exits 0 when every selected record was delivered (or none matched), 1 when a produce
    failed or the topic could not be read, 2 on a usage error or when --yes is missing, 78 when
    librdkafka refuses a -X property.
    """

    static func run(_ args: [String]) throws {
        if Output.wantsHelp(args) { Output.help(help) }
        let a = try Arguments(args, valued: ["--bootstrap-servers", "--error-code", "--from-offset", "--to-offset", "--session",
                                             "--dlq-topic", "--input-topic", "--timeout", "-X"],
                              flags: ["--dry-run", "--yes", "--help"])
        guard a.positional == ["replay"] else {
            Output.fail("dlq: expected `dlq replay`, got \(a.positional.isEmpty ? "nothing" : a.positional.joined(separator: " "))\n\n\(help)")
        }
        var kafka = KafkaConfiguration()
        try kafka.apply(assignments: a.all("-X"))
        if let servers = a.value("--bootstrap-servers") { kafka["bootstrap.servers"] = servers }
        guard kafka["bootstrap.servers"] != nil else { Output.fail("dlq replay: --bootstrap-servers is required") }
        let selection = DeadLetterSelection(errorCodes: Set(a.all("--error-code")), fromOffset: try offset(a, "--from-offset"),
                                            toOffset: try offset(a, "--to-offset"), sessions: Set(a.all("--session")))
        if let from = selection.fromOffset, let to = selection.toOffset, from > to {
            Output.fail("dlq replay: --from-offset \(from) is after --to-offset \(to)")
        }
        let timeout = Duration.seconds(try a.int("--timeout") ?? 30)
        let dlqTopic = a.value("--dlq-topic") ?? Topics.defaultDeadLetters
        let inputTopic = a.value("--input-topic") ?? Topics.defaultAddressChanged

        let (read, matched) = try DeadLetterReplay.read(topic: dlqTopic, selection: selection, kafka: kafka, timeout: timeout)
        if a.has("--dry-run") {
            for letter in matched { Output.line(letter.summary) }
            Output.line("dry run: \(matched.count) of \(read) dead letters read match; nothing produced")
            return
        }
        if matched.count > DeadLetterReplay.confirmationThreshold && !a.has("--yes") {
            Output.fail("dlq replay: \(matched.count) dead letters match, more than \(DeadLetterReplay.confirmationThreshold): "
                        + "review them with --dry-run, then replay with --yes")
        }
        let outcome = try DeadLetterReplay.replay(matched, to: inputTopic, kafka: kafka, timeout: timeout)
        for d in outcome.delivered { Output.line("replayed dlq-offset=\(d.dlqOffset) to \(inputTopic)[\(d.partition)]@\(d.offset)") }
        for f in outcome.failed { Output.line("failed dlq-offset=\(f.dlqOffset): \(f.error)") }
        Output.line("replayed \(outcome.delivered.count) of \(matched.count) matching (\(read) dead letters read); \(outcome.failed.count) failed")
        if !outcome.failed.isEmpty { exit(ExitCode.failure) }
    }

    private static func offset(_ a: Arguments, _ name: String) throws -> Int64? {
        guard let n = try a.int(name) else { return nil }
        guard n >= 0 else { throw Arguments.UsageError(description: "\(name) expects an offset, 0 or more, got \(n)") }
        return Int64(n)
    }
}
