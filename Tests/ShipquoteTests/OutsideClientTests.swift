import Foundation
import Testing

/// An outside Kafka client (kcat) talks to `shipquote broker` while `shipquote run` works:
/// the wire contract, not our own client code, carries the event and the reply.
@Suite struct OutsideClientTests {
    static let kcat = Tool.path("kcat")

    @Test(.enabled(if: kcat != nil, "kcat is not installed (apt-get install kcat)"))
    func kcatProducesAnEventAndReadsTheWorkersReply() throws {
        let kcat = try #require(Self.kcat)
        let (broker, brokerOut, _) = try Binary.start(["broker", "--partitions", "2"])
        defer { Binary.stop(broker) }
        let bootstrap = try #require(Binary.firstLine(of: brokerOut, timeout: 20))
        #expect(bootstrap.hasPrefix("127.0.0.1:"))

        let worker = try WorkerProcess(bootstrap: bootstrap)
        defer { Binary.stop(worker.process) }
        // The event's reply_by counts from when the worker is ready: beside the whole suite a start can be slow.
        try #require(worker.awaitLog("\"body\":\"sequence state restored\"", timeout: 180), "the worker never got ready: \(worker.stderr)")
        let now = Date()
        let formatter = ISO8601DateFormatter()
        let session = "kcat-\(UUID().uuidString.lowercased())"
        let event = """
        {"version":1,"event_id":"kcat-1","session_id":"\(session)","sequence":1,"merchant":"acme","payment_method_type":"APPLE_PAY",\
        "trigger":"address_changed","currency":"USD","shipping_address":{"city":"Cupertino","state":"CA","postal_code":"95014","country_code":"US"},\
        "cart":{"items":[{"id":"sku-1","label":"T-shirt","quantity":2,"unit_amount":{"currency":"USD","value":25.00},"tax_category":"apparel","weight_grams":300}],\
        "discounts":[{"id":"promo","label":"Promo","amount":{"currency":"USD","value":-5.00}}]},"selected_shipping_method_id":"standard",\
        "occurred_at":"\(formatter.string(from: now))","reply_by":"\(formatter.string(from: now.addingTimeInterval(60)))"}
        """
        // kcat splits key and value at the first ':' of the line; the contract's partitioner, as every producer sets it.
        let produced = try Tool.run(kcat, ["-P", "-b", bootstrap, "-t", "shipping.address-changed", "-K", ":", "-X", "partitioner=murmur2_random"],
                                    input: "\(session):\(event)\n", timeout: 20)
        #expect(produced.status == 0)

        let consumed = try Tool.run(kcat, ["-C", "-b", bootstrap, "-t", "shipping.quote-replies", "-o", "beginning",
                                           "-c", "1", "-f", "%k|%h|%s\n"], timeout: 60)
        worker.process.terminate()  // SIGTERM: a clean shutdown exits 0
        #expect(Binary.awaitExit(worker.process, timeout: 30), "the worker did not stop on SIGTERM")
        // Its last lines may still be on their way from the pipe.
        let deadline = Date().addingTimeInterval(5)
        while !worker.stderr.contains("\"body\":\"worker stopped\"") && Date() < deadline { usleep(20_000) }
        #expect(worker.process.terminationStatus == 0, "worker: \(worker.stderr)")
        #expect(worker.stderr.contains("\"body\":\"worker stopped\""))

        let parts = consumed.stdout.split(separator: "|", maxSplits: 2).map(String.init)
        try #require(parts.count == 3, "kcat read: \(consumed.stdout)")
        #expect(parts[0] == session)
        #expect(parts[1].contains("content-type=application/json"))
        #expect(parts[1].contains("session-id=\(session)"))
        #expect(parts[1].contains("sequence=1"))
        #expect(parts[2].hasPrefix("{\"version\":1,\"session_id\":\"\(session)\",\"sequence\":1,\"event_id\":\"kcat-1\",\"outcome\":\"update\""))
        #expect(parts[2].contains("{\"id\":\"total\",\"label\":\"ACME Inc.\",\"amount\":{\"currency\":\"USD\",\"value\":\"53.94\"}}"))
    }

    @Test func sendProducesASavedEventAndPrintsTheReplyToIt() throws {
        let (broker, brokerOut, _) = try Binary.start(["broker", "--partitions", "2"])
        defer { Binary.stop(broker) }
        let bootstrap = try #require(Binary.firstLine(of: brokerOut, timeout: 20))
        let worker = try WorkerProcess(bootstrap: bootstrap)
        defer { Binary.stop(worker.process) }
        // The command is what is tested here, not how fast a worker starts: beside the whole suite its
        // start (join, restore) can outlast the event's 30 s time to live, and the event would expire.
        try #require(worker.awaitLog("\"body\":\"sequence state restored\"", timeout: 180), "the worker never got ready: \(worker.stderr)")
        // The saved event's occurred_at is long past: --restamp makes it current, or it would expire.
        let event = Binary.repository.appendingPathComponent("examples/events/contract-example.json").path
        let result = try Binary.run(["send", "--bootstrap-servers", bootstrap, "--event", event, "--restamp",
                                     "--timeout", "30", "-X", "fetch.wait.max.ms=5"], timeout: 60)
        #expect(result.status == 0, "send: \(result.stderr)\nworker: \(worker.stderr)")
        #expect(result.stdout.hasPrefix("{\"version\":1,\"session_id\":\"9a0c6f0e-4b1e-4c1a-9a55-3c2f1d7e8b10\",\"sequence\":7,"))
        #expect(result.stdout.contains("{\"id\":\"total\",\"label\":\"ACME Inc.\",\"amount\":{\"currency\":\"USD\",\"value\":\"53.94\"}}"))
    }
}
