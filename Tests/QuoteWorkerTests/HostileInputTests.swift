import Foundation
import Kafka
import QuoteContract
import QuoteWorker
import ShippingRules
import Testing

/// Issue 5, hostile input: the corpus in Fixtures/hostile and 10,000 generated cases are refused
/// with the contract's codes; a few hundred go through a running worker on the embedded broker,
/// which dead-letters each one unchanged, answers the addressable ones, keeps its memory and its
/// logs clean, and goes on consuming.
@Suite(.serialized) struct HostileInputTests {
    static let seed: UInt64 = 20_261_013

    @Test func tenThousandGeneratedCasesAndTheCorpusAreRefusedWithTheContractsCodes() throws {
        let fixtures = try HostileEvents.fixtures()
        #expect(fixtures.count >= 20)
        let before = ResidentMemory.kibibytes()
        var byCode: [String: Int] = [:]
        var answerable = 0
        var cases = 0
        // In slices, so the corpus in memory stays small and the memory figure means the decoder's.
        for slice in 0..<10 {
            let events = slice == 0 ? fixtures + HostileEvents.generate(count: 1_000, seed: Self.seed + UInt64(slice))
                                    : HostileEvents.generate(count: 1_000, seed: Self.seed + UInt64(slice))
            for event in events {
                cases += 1
                switch AddressChangeEvent.decode(event.bytes, key: event.key) {
                case .success:
                    Issue.record("\(event.name): accepted, expected one of \(event.codes.sorted())")
                case .failure(let rejection):
                    byCode[rejection.code.rawValue, default: 0] += 1
                    if rejection.isAnswerable { answerable += 1 }
                    #expect(event.codes.contains(rejection.code.rawValue),
                            "\(event.name): \(rejection.code.rawValue) (\(rejection.message)), expected one of \(event.codes.sorted())")
                    for secret in HostileEvents.secrets {
                        #expect(!rejection.description.contains(secret), "\(event.name): the rejection quotes the event")
                    }
                }
            }
        }
        let after = ResidentMemory.kibibytes()
        print("hostile input, decoder: \(cases) cases (\(fixtures.count) corpus files + \(cases - fixtures.count) generated, seed \(Self.seed)); "
              + "\(answerable) answerable; by code \(byCode.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        print("hostile input, decoder: RSS \(ResidentMemory.mebibytes(before.current)) before, \(ResidentMemory.mebibytes(after.current)) after, "
              + "peak \(ResidentMemory.mebibytes(after.peak))")
        #expect(cases >= 10_000 + fixtures.count)
    }

    @Test func theCorpusThroughARunningWorkerIsDeadLetteredAnsweredAndNeverLogged() throws {
        let lines = CapturedLog()
        let harness = try WorkerHarness(partitions: 2, logger: lines.logger(minimum: .debug))
        defer { harness.stop() }
        harness.awaitAssignment()

        let cases = try HostileEvents.fixtures()
            + HostileEvents.generate(count: 300, seed: Self.seed &+ 99, largeEvery: 0)
            + [HostileEvents.oversized(session: "h-oversized", name: "1 MiB + 1 byte")]
        let rejections = cases.map { event -> EventRejection in
            guard case .failure(let rejection) = AddressChangeEvent.decode(event.bytes, key: event.key) else {
                fatalError("\(event.name) must be refused")
            }
            return rejection
        }
        let memoryBefore = ResidentMemory.kibibytes()
        let reports = harness.produce(cases.map {
            KafkaOutgoingMessage(topic: harness.topics.addressChanged, key: $0.key, value: $0.bytes)
        })
        // After the corpus: an event with the same recognisable address and cart, and an ordinary one.
        var secretive = harness.event(session: "h-valid-secret", sequence: 1)
        secretive.shippingAddress = PartialAddress(city: "Zyxwvutopolis", state: "CA", postalCode: "ZZ9 9ZZ", countryCode: "US")
        let shown = secretive.cart.items[0]
        secretive.cart = Cart(items: [CartItem(id: shown.id, label: "SecretWidget", quantity: shown.quantity, unitAmount: shown.unitAmount,
                                               taxCategory: shown.taxCategory, weightGrams: shown.weightGrams,
                                               shippingClass: shown.shippingClass, dimensions: shown.dimensions)]
                                  + secretive.cart.items.dropFirst(),
                              discounts: secretive.cart.discounts, subtotal: secretive.cart.subtotal)
        harness.produce([harness.record(secretive), harness.record(harness.event(session: "h-good", sequence: 1))])
        let metrics = harness.awaitFinished(cases.count + 2)
        let memoryAfter = ResidentMemory.kibibytes()

        #expect(metrics.deadLetters == cases.count)
        // Rejected counts the answered ones; the others are dropped as unanswerable.
        #expect(metrics.outcomes["rejected", default: 0] + metrics.drops[.unanswerable, default: 0] == cases.count)
        #expect(metrics.outcomes["rejected", default: 0] == rejections.filter(\.isAnswerable).count)
        print("hostile input, worker: \(cases.count) cases through the embedded broker; dead letters \(metrics.deadLetters); "
              + "RSS \(ResidentMemory.mebibytes(memoryBefore.current)) before, \(ResidentMemory.mebibytes(memoryAfter.current)) after, "
              + "peak \(ResidentMemory.mebibytes(memoryAfter.peak)) (the test's own corpus and reader included)")

        let letters = try harness.read(harness.topics.deadLetters) { $0.count >= cases.count }
        #expect(letters.count == cases.count)
        let letterAt = Dictionary(letters.map { (($0.headerText(ContractHeader.sourcePartition) ?? "") + "/" + ($0.headerText(ContractHeader.sourceOffset) ?? ""), $0) }) { a, _ in a }
        for ((event, rejection), report) in zip(zip(cases, rejections), reports) {
            guard case .delivered(let partition, let offset) = report else { Issue.record("\(event.name) not produced"); continue }
            guard let letter = letterAt["\(partition)/\(offset)"] else { Issue.record("no dead letter for \(event.name)"); continue }
            #expect(letter.value == event.bytes, "\(event.name): the dead letter must keep the original bytes")
            #expect(letter.key == event.key, "\(event.name)")
            #expect(letter.headerText(ContractHeader.errorCode) == rejection.code.rawValue, "\(event.name)")
            #expect(letter.headerText(ContractHeader.errorMessage)?.isEmpty == false, "\(event.name)")
            #expect(letter.headerText(ContractHeader.sourceTopic) == harness.topics.addressChanged)
            for secret in HostileEvents.secrets {
                #expect(letter.headerText(ContractHeader.errorMessage)?.contains(secret) == false, "\(event.name): the error message quotes the event")
            }
        }

        let answerable = rejections.filter(\.isAnswerable)
        let replies = try harness.read(harness.topics.quoteReplies) { $0.count >= answerable.count + 2 }
        let decoded = try replies.map { try QuoteReply.decode($0.value) }
        #expect(decoded.count == answerable.count + 2)
        print("hostile input, worker: \(answerable.count) rejected replies for the cases whose session and sequence were readable")
        for rejection in answerable {
            let reply = decoded.first { $0.sessionID == rejection.sessionID && $0.sequence == rejection.sequence }
            guard case .rejected(let answer)? = reply?.outcome else {
                Issue.record("no rejected reply for \(rejection.sessionID ?? "") \(rejection.sequence ?? 0)")
                continue
            }
            #expect(answer == rejection.quoteRejection)
        }
        for reply in replies {
            let text = String(decoding: reply.value, as: UTF8.self)
            if text.contains("h-valid-secret") { continue }  // a real quote may name nothing of the address, but need not be checked here
            for secret in HostileEvents.secrets { #expect(!text.contains(secret), "a rejected reply quotes the event") }
        }
        // Still consuming: the ordinary event after the corpus got a real answer.
        #expect(decoded.contains { $0.sessionID == "h-good" && $0.outcome.isUpdate })

        let log = lines.all
        #expect(!log.isEmpty)
        lines.expectPrivateJSON(log)
        print("hostile input, worker: \(log.count) log lines, each one JSON object, none with an address or cart")
    }
}

extension QuoteOutcome {
    var isUpdate: Bool { if case .update = self { true } else { false } }
}

/// Every line a Logger writes, kept for the privacy checks.
final class CapturedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func logger(minimum: Logger.Level) -> Logger {
        Logger(minimum: minimum) { [self] line in lock.withLock { lines.append(line) } }
    }

    var all: [String] { lock.withLock { lines } }

    /// Each line one JSON object, and none carrying the recognisable address or cart.
    func expectPrivateJSON(_ log: [String], secrets: [String] = HostileEvents.secrets) {
        for line in log {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8))
            #expect(object is [String: Any], "not one JSON object: \(line.prefix(200))")
            for secret in secrets { #expect(!line.contains(secret), "a log line carries personal data: \(line.prefix(300))") }
        }
    }
}
