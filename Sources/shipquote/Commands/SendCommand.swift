import Foundation
import Kafka
import QuoteContract
import QuoteGateway
import QuoteWorker

/// `shipquote send`: produce one event and print the reply to it.
enum SendCommand {
    static let help = """
    usage: shipquote send --bootstrap-servers HOST:PORT --event FILE [flags]

      --event FILE           the address-change event (JSON); - reads standard input
      --restamp              set occurred_at to now and drop reply_by (for replaying a saved event)
      --timeout SECONDS      how long to wait for the reply (default 10)
      -X key=value           a librdkafka property (repeatable)
      --input-topic NAME     default \(Topics.defaultAddressChanged)
      --reply-topic NAME     default \(Topics.defaultQuoteReplies)

    Prints the reply as JSON and exits 0; exits 1 when no reply came in time or the event could not
    be produced, 2 on a usage error (a missing flag, an unreadable or invalid event file), 78 when
    librdkafka refuses a -X property.
    """

    static func run(_ args: [String]) throws {
        if Output.wantsHelp(args) { Output.help(help) }
        let a = try Arguments(args, valued: ["--bootstrap-servers", "--event", "--timeout", "-X", "--input-topic", "--reply-topic"],
                              flags: ["--restamp", "--help"])
        guard let path = a.value("--event") else { Output.fail("send: --event is required\n\n\(help)") }
        var kafka = KafkaConfiguration()
        try kafka.apply(assignments: a.all("-X"))
        if let servers = a.value("--bootstrap-servers") { kafka["bootstrap.servers"] = servers }
        guard kafka["bootstrap.servers"] != nil else { Output.fail("send: --bootstrap-servers is required") }

        let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path)
        guard let data else { Output.fail("send: cannot read \(path)") }
        var event: AddressChangeEvent
        switch AddressChangeEvent.decode(unkeyed: Array(data)) {
        case .success(let e): event = e
        case .failure(let rejection): Output.fail("send: \(path) is not a valid event: \(rejection)")
        }
        if a.has("--restamp") {
            event.occurredAt = Date()
            event.replyBy = nil
        }
        // librdkafka's warnings and client errors as structured lines on stderr, as the worker writes them.
        let logger = Logger(minimum: .warning)
        let gateway = QuoteGateway(configuration: .init(
            kafka: kafka, eventsTopic: a.value("--input-topic") ?? Topics.defaultAddressChanged,
            repliesTopic: a.value("--reply-topic") ?? Topics.defaultQuoteReplies),
            log: logger.kafkaLogSink, onClientError: logger.kafkaClientError)
        defer { gateway.close() }
        let timeout = try a.int("--timeout") ?? 10
        // The gateway's async face, as a gateway service would call it; this command just waits for it.
        let sending = event
        let answer = BlockingCall.run { () async throws(GatewayError) -> QuoteGateway.Answer in
            try await gateway.quote(sending, defaultWait: .seconds(timeout))
        }
        switch answer {
        case .success(.reply(let reply)):
            Output.line(String(decoding: reply.encode(), as: UTF8.self))
        case .success(.superseded(let newer)):
            Output.fail("send: sequence \(newer) of this session was sent meanwhile", exitCode: ExitCode.failure)
        case .failure(.timedOut):
            Output.fail("send: no reply to session \(event.sessionID) sequence \(event.sequence) within \(timeout) s", exitCode: ExitCode.failure)
        case .failure(.clientFailed(let error)) where error.name == "_INVALID_ARG":
            Output.fail("send: invalid configuration: \(error)", exitCode: ExitCode.configuration)
        case .failure(let error):
            Output.fail("send: \(error)", exitCode: ExitCode.failure)
        }
    }
}
