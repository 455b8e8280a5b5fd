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

    func show(_ sequence: Int64, _ answer: Result<QuoteGateway.Answer, GatewayError>) {
        switch answer {
        case .success(.reply(let reply)):
            let lines = ReplyPrinter.lines(reply)
            Output.line("◀ seq \(sequence)  " + lines[0])
            for line in lines.dropFirst() { Output.line(line) }
        case .success(.superseded(let newer)):
            Output.line("◀ seq \(sequence)  no longer awaited: sequence \(newer) was sent")
        case .failure(.timedOut):
            Output.line("◀ seq \(sequence)  no reply in time")
        case .failure(let error):
            Output.line("◀ seq \(sequence)  no reply: \(error)")
        }
        Output.line()
    }

    func step(_ event: AddressChangeEvent, note: String) throws {
        announce(event, note)
        let gateway = self.gateway, timeout = self.timeout
        show(event.sequence, BlockingCall.run { () async throws(GatewayError) in try await gateway.quote(event, defaultWait: timeout) })
    }

    /// Two events of one session sent back to back: the older one's answer must never be applied.
    func burst(_ first: AddressChangeEvent, then second: AddressChangeEvent, note: String) throws {
        announce(first, note)
        announce(second, "sent right behind it")
        let droppedBefore = worker.metrics.snapshot().drops[.superseded] ?? 0
        let gateway = self.gateway, timeout = self.timeout
        let answer = BlockingCall.run { () async throws(GatewayError) in
            try await gateway.send([first, second])
            return try await gateway.reply(sessionID: second.sessionID, sequence: second.sequence, within: timeout)
        }
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
        let gateway = self.gateway, timeout = self.timeout
        show(sequence, BlockingCall.run { () async throws(GatewayError) in
            try await gateway.send(bytes: bytes, sessionID: sessionID, sequence: sequence)
            return try await gateway.reply(sessionID: sessionID, sequence: sequence, within: timeout)
        })
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
