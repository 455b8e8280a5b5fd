import Foundation
import Kafka
import QuoteContract
import QuoteGateway
import QuoteWorker

/// Sends the demo's events through the gateway and prints what comes back.
struct DemoPlay {
    let gateway: QuoteGateway
    let worker: Worker
    let timeout: Duration = .seconds(15)

    func announce(_ event: AddressChangeEvent, _ note: String) {
        Output.line("▶ seq \(event.sequence)  \(event.trigger.rawValue)  \(DemoCheckout.describe(event.shippingAddress))   (\(note))")
    }

    func show(_ sequence: Int64, _ answer: QuoteGateway.Answer) {
        switch answer {
        case .reply(let reply):
            let lines = ReplyPrinter.lines(reply)
            Output.line("◀ seq \(sequence)  " + lines[0])
            for line in lines.dropFirst() { Output.line(line) }
        case .superseded(let newer):
            Output.line("◀ seq \(sequence)  no longer awaited: sequence \(newer) was sent")
        case .timedOut:
            Output.line("◀ seq \(sequence)  no reply within \(timeout)")
        }
        Output.line()
    }

    func step(_ event: AddressChangeEvent, note: String) throws {
        announce(event, note)
        show(event.sequence, try gateway.quote(event, timeout: timeout))
    }

    /// Two events of one session sent back to back: the older one's answer must never be applied.
    func burst(_ first: AddressChangeEvent, then second: AddressChangeEvent, note: String) throws {
        announce(first, note)
        announce(second, "sent right behind it")
        let droppedBefore = worker.metrics.snapshot().drops[.superseded] ?? 0
        try gateway.send([first, second])
        let answer = gateway.awaitReply(sessionID: second.sessionID, sequence: second.sequence, timeout: timeout)
        let droppedByWorker = (worker.metrics.snapshot().drops[.superseded] ?? 0) > droppedBefore
        if droppedByWorker {
            Output.line("◀ seq \(first.sequence)  dropped as stale: the worker saw sequence \(second.sequence) before answering, and never published an answer")
        } else {
            Output.line("◀ seq \(first.sequence)  dropped as stale: its answer came after sequence \(second.sequence) was sent, and the gateway ignored it")
        }
        show(second.sequence, answer)
    }

    func malformed(_ bytes: [UInt8], sessionID: String, sequence: Int64, note: String) throws {
        Output.line("▶ seq \(sequence)  malformed event   (\(note))")
        try gateway.send(bytes: bytes, sessionID: sessionID, sequence: sequence)
        show(sequence, gateway.awaitReply(sessionID: sessionID, sequence: sequence, timeout: timeout))
    }

    /// Reads the dead-letter topic back and shows the headers that say why.
    func showDeadLetter(kafka: KafkaConfiguration, topic: String) throws {
        var config = kafka
        config["group.id"] = "shipquote-demo-dlq-reader"  // assigned by hand, never joined
        let reader = try KafkaConsumer(configuration: config) { _ in }
        defer { reader.close() }
        try reader.assign([KafkaTopicPartition(topic, 0): 0])
        let deadline = Date().addingTimeInterval(10)
        var records: [KafkaMessage] = []
        while records.isEmpty && Date() < deadline { records = reader.poll(maxMessages: 10, timeoutMs: 100) }
        guard let record = records.last else { return Output.line("(no dead letter found on \(topic))") }
        Output.line("Dead letter on \(topic) at offset \(record.offset): the original \(record.value.count) bytes, unchanged, with headers")
        for name in [ContractHeader.errorCode, ContractHeader.errorMessage, ContractHeader.sourceTopic,
                     ContractHeader.sourcePartition, ContractHeader.sourceOffset] {
            Output.line("    \(name): \(record.header(name).map { String(decoding: $0, as: UTF8.self) } ?? "–")")
        }
    }
}
