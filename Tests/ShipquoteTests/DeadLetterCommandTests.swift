import Foundation
import Kafka
import QuoteContract
import Testing

/// `shipquote dlq replay` against `shipquote broker`: a dry run lists and produces nothing, more
/// than ten matches need --yes, a selection replays exactly what it names, a failed produce exits 1.
@Suite(.serialized) struct DeadLetterCommandTests {
    static let codes = ["not_json", "invalid_field", "missing_field"]

    /// Twelve dead letters on `shipquote broker`: offset n has code codes[n % 3] and key s-n.
    static func brokerWithDeadLetters() throws -> (Process, String) {
        let (broker, out, _) = try Binary.start(["broker", "--partitions", "2"])
        guard let bootstrap = Binary.firstLine(of: out, timeout: 20) else {
            Binary.stop(broker)
            throw DeadLetterSetupError()
        }
        let producer = try KafkaProducer(configuration: KafkaConfiguration(["bootstrap.servers": bootstrap, "linger.ms": "1"]))
        defer { producer.close(timeoutMs: 5_000) }
        for n in 0..<12 {
            let headers = [KafkaHeader(ContractHeader.errorCode, codes[n % 3]), KafkaHeader(ContractHeader.errorMessage, "why"),
                           KafkaHeader(ContractHeader.sourceTopic, Topics.defaultAddressChanged),
                           KafkaHeader(ContractHeader.sourcePartition, "0"), KafkaHeader(ContractHeader.sourceOffset, String(n))]
            try producer.send(KafkaOutgoingMessage(topic: Topics.defaultDeadLetters, key: Array("s-\(n)".utf8),
                                                   value: Array("VALUE-\(n)-".utf8) + Array(repeating: UInt8(ascii: "x"), count: n == 5 ? 3000 : 10),
                                                   headers: headers, partition: 0)) { _ in }
        }
        #expect(producer.flush(timeoutMs: 10_000))
        return (broker, bootstrap)
    }

    struct DeadLetterSetupError: Error {}

    static func inputRecords(_ bootstrap: String) throws -> [KafkaMessage] {
        let reader = try KafkaConsumer(configuration: KafkaConfiguration(["bootstrap.servers": bootstrap, "group.id": "check-\(UUID())"])) { _ in }
        defer { reader.close() }
        var start: [KafkaTopicPartition: Int64] = [:]
        for p in 0..<Int32(try reader.partitionCount(Topics.defaultAddressChanged)) {
            start[KafkaTopicPartition(Topics.defaultAddressChanged, p)] = 0
        }
        var total: Int64 = 0
        for tp in start.keys { total += try reader.watermarks(tp).high }
        guard total > 0 else { return [] }
        try reader.assign(start)
        var records: [KafkaMessage] = []
        let deadline = Date().addingTimeInterval(20)
        while records.count < total && Date() < deadline { records += reader.poll(maxMessages: 100, timeoutMs: 50) }
        return records
    }

    @Test func aDryRunListsTheSelectionWithoutValuesAndProducesNothing() throws {
        let (broker, bootstrap) = try Self.brokerWithDeadLetters()
        defer { Binary.stop(broker) }
        let dry = try Binary.run(["dlq", "replay", "--bootstrap-servers", bootstrap, "--dry-run", "--error-code", "not_json",
                                  "--error-code", "missing_field", "--from-offset", "2", "--to-offset", "9"], timeout: 60)
        #expect(dry.status == 0, "\(dry.stderr)")
        let lines = dry.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("dlq-offset=") }.map { $0.split(separator: " ")[0] } ==
                ["dlq-offset=2", "dlq-offset=3", "dlq-offset=5", "dlq-offset=6", "dlq-offset=8", "dlq-offset=9"])
        #expect(lines.contains("dlq-offset=3 error-code=not_json source=shipping.address-changed[0]@3 session=s-3"))
        #expect(lines.last == "dry run: 6 of 8 dead letters read match; nothing produced")
        #expect(!dry.stdout.contains("VALUE"), "a dry run never shows a value")
        let session = try Binary.run(["dlq", "replay", "--bootstrap-servers", bootstrap, "--dry-run", "--session", "s-4"], timeout: 60)
        #expect(session.stdout.hasPrefix("dlq-offset=4 error-code=invalid_field"))
        #expect(try Self.inputRecords(bootstrap).isEmpty)

        // Twelve match: not without --yes.
        let unconfirmed = try Binary.run(["dlq", "replay", "--bootstrap-servers", bootstrap], timeout: 60)
        #expect(unconfirmed.status == 2)
        #expect(unconfirmed.stderr.contains("12 dead letters match"))
        #expect(try Self.inputRecords(bootstrap).isEmpty)
    }

    @Test func aSelectionReplaysExactlyItsRecordsAndAFailedProduceExitsOne() throws {
        let (broker, bootstrap) = try Self.brokerWithDeadLetters()
        defer { Binary.stop(broker) }
        let run = try Binary.run(["dlq", "replay", "--bootstrap-servers", bootstrap, "--error-code", "invalid_field",
                                  "--from-offset", "1", "--to-offset", "7"], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("replayed 3 of 3 matching (7 dead letters read); 0 failed"), "\(run.stdout)")
        let input = try Self.inputRecords(bootstrap)
        #expect(input.compactMap { $0.key.map { String(decoding: $0, as: UTF8.self) } }.sorted() == ["s-1", "s-4", "s-7"])
        for record in input {
            let key = String(decoding: record.key ?? [], as: UTF8.self)
            #expect(record.partition == JavaPartitioner.partition(key, partitions: 2), "murmur2_random: \(key)")
            #expect(record.headers.map(\.name) == ["replayed-from-dlq-offset"])
            #expect(record.header("replayed-from-dlq-offset") == Array(key.dropFirst(2).utf8))
        }
        // Offset 5 is larger than the producer may send.
        let failed = try Binary.run(["dlq", "replay", "--bootstrap-servers", bootstrap, "--from-offset", "5", "--to-offset", "6",
                                     "-X", "message.max.bytes=2000"], timeout: 60)
        #expect(failed.status == 1, "\(failed.stdout) \(failed.stderr)")
        #expect(failed.stdout.contains("failed dlq-offset=5"))
        #expect(failed.stdout.contains("replayed 1 of 2 matching"))
    }

    @Test(arguments: [["dlq"], ["dlq", "frobnicate"], ["dlq", "replay"], ["dlq", "replay", "--bootstrap-servers", "127.0.0.1:1", "--from-offset", "x"],
                      ["dlq", "replay", "--bootstrap-servers", "127.0.0.1:1", "--from-offset", "5", "--to-offset", "2"]])
    func aWrongCommandLineIsAUsageError(command: [String]) throws {
        let result = try Binary.run(command, timeout: 30)
        #expect(result.status == 2, "\(command): exit \(result.status), \(result.stderr)")
    }

    @Test func helpNamesTheReplayHeader() throws {
        let result = try Binary.run(["dlq", "replay", "--help"], timeout: 30)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("usage: shipquote dlq replay"))
        #expect(result.stdout.contains("replayed-from-dlq-offset"))
    }
}
