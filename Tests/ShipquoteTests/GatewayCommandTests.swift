import Foundation
import Testing

/// `shipquote gateway` as a platform runs it: the broker and a worker as processes, the gateway
/// on a port of its own, curl as the merchant's backend; SIGTERM drains what is in flight.
@Suite(.serialized) struct GatewayCommandTests {
    static let body = """
    {"merchant":"acme","payment_method_type":"APPLE_PAY","trigger":"address_changed","currency":"USD",
     "shipping_address":{"city":"Cupertino","state":"CA","postal_code":"95014","country_code":"US"},
     "cart":{"items":[{"id":"sku-1","label":"T-shirt","quantity":2,"unit_amount":{"currency":"USD","value":"25.00"}}]}}
    """

    static func curlArguments(_ url: String, timeout: String) -> [String] {
        ["-sS", "-o", "-", "-w", "\n%{http_code}", "-X", "POST", "-H", "Content-Type: application/json",
         "-H", "Request-Timeout: \(timeout)", "--data-binary", "@-", url]
    }

    @Test func aCallThroughTheBinaryGetsTheUpdateAndSIGTERMExitsZero() throws {
        let curl = try #require(Tool.path("curl"), "curl is not installed (apt-get install curl)")
        let (broker, brokerOut, _) = try Binary.start(["broker", "--partitions", "2"])
        defer { Binary.stop(broker) }
        let bootstrap = try #require(Binary.firstLine(of: brokerOut, timeout: 20))
        let worker = try WorkerProcess(bootstrap: bootstrap)
        defer { Binary.stop(worker.process) }
        try #require(worker.awaitLog("partitions assigned", timeout: 60), "the worker never joined: \(worker.stderr)")
        let (gateway, _, gatewayErr) = try Binary.start(["gateway", "--bootstrap-servers", bootstrap, "--listen", "127.0.0.1:0"])
        defer { Binary.stop(gateway) }
        let port = try #require(HealthcheckCommandTests.listenPort(in: gatewayErr, timeout: 30))
        // 503 until the producer and the reply reader are up, then 200.
        var ready = ""
        let deadline = Date().addingTimeInterval(20)
        while ready != "200" && Date() < deadline {
            ready = try Tool.run(curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/readyz"], timeout: 10).stdout
            if ready != "200" { usleep(50_000) }
        }
        #expect(ready == "200")

        let call = try Tool.run(curl, Self.curlArguments("http://127.0.0.1:\(port)/v1/sessions/binary-1/quote", timeout: "10"),
                                input: Self.body, timeout: 30)
        let lines = call.stdout.split(separator: "\n")
        #expect(lines.last == "200", "\(call.stdout)")
        #expect(call.stdout.hasPrefix("{\"summary_items\":["))
        #expect(call.stdout.contains("\"label\":\"ACME Inc.\""))

        gateway.terminate()
        #expect(Binary.awaitExit(gateway, timeout: 20))
        #expect(gateway.terminationStatus == 0)
    }

    @Test func sigtermAnswersTheCallInFlightAndExitsZero() throws {
        let curl = try #require(Tool.path("curl"), "curl is not installed (apt-get install curl)")
        let (broker, brokerOut, _) = try Binary.start(["broker", "--partitions", "2"])
        defer { Binary.stop(broker) }
        let bootstrap = try #require(Binary.firstLine(of: brokerOut, timeout: 20))
        // No worker: the call waits until the drain gives up on it.
        let (gateway, _, gatewayErr) = try Binary.start(["gateway", "--bootstrap-servers", bootstrap, "--listen", "127.0.0.1:0",
                                                         "--shutdown-grace", "1"])
        defer { Binary.stop(gateway) }
        let port = try #require(HealthcheckCommandTests.listenPort(in: gatewayErr, timeout: 30))
        let waiting = Process()
        waiting.executableURL = URL(fileURLWithPath: curl)
        waiting.arguments = Self.curlArguments("http://127.0.0.1:\(port)/v1/sessions/binary-2/quote", timeout: "20")
        let input = Pipe(), output = Pipe()
        waiting.standardInput = input
        waiting.standardOutput = output
        try waiting.run()
        input.fileHandleForWriting.write(Data(Self.body.utf8))
        try input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let metrics = try Tool.run(curl, ["-s", "http://127.0.0.1:\(port)/metrics"], timeout: 10)
            if metrics.stdout.contains("shipquote_gateway_in_flight 1") { break }
            usleep(50_000)
        }
        gateway.terminate()
        #expect(Binary.awaitExit(gateway, timeout: 20))
        #expect(gateway.terminationStatus == 0)
        let answered = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        waiting.waitUntilExit()
        #expect(answered.hasSuffix("\n503"), "\(answered)")
    }

    @Test func printConfigShowsTheGatewaysSettingsAndTheirSources() throws {
        let result = try Binary.run(["gateway", "--print-config", "--bootstrap-servers", "127.0.0.1:1", "--max-in-flight", "64",
                                     "-X", "sasl.password=hunter2"], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("max-in-flight=64  # flag --max-in-flight"))
        #expect(result.stdout.contains("request-timeout=10  # default"))
        #expect(result.stdout.contains("kafka.sasl.password=[redacted]"))
        #expect(!result.stdout.contains("hunter2"))
        let bad = try Binary.run(["gateway", "--bootstrap-servers", "127.0.0.1:1", "--listen", "nowhere"], timeout: 30)
        #expect(bad.status == 78)
        #expect(bad.stderr.contains("listen=nowhere"))
    }

    /// The image's ENV names the worker's settings (SHIPQUOTE_RULES, SHIPQUOTE_METRICS_LISTEN): the
    /// gateway, run from the same image, passes over them; any other unknown name is still a typo.
    @Test func theWorkersEnvironmentIsIgnoredAndATypoIsNot() throws {
        let image = try Binary.run(["gateway", "--print-config", "--bootstrap-servers", "127.0.0.1:1"],
                                   environment: ["SHIPQUOTE_RULES": "/etc/shipquote/rules/us-acme.yaml", "SHIPQUOTE_METRICS_LISTEN": "0.0.0.0:9464",
                                                 "SHIPQUOTE_LISTEN": "0.0.0.0:8081"], timeout: 30)
        #expect(image.status == 0, "\(image.stderr)")
        #expect(image.stdout.contains("listen=0.0.0.0:8081  # environment SHIPQUOTE_LISTEN"))
        #expect(!image.stdout.contains("rules") && !image.stdout.contains("metrics-listen"))
        let typo = try Binary.run(["gateway", "--print-config", "--bootstrap-servers", "127.0.0.1:1"],
                                  environment: ["SHIPQUOTE_LISTN": "0.0.0.0:8081"], timeout: 30)
        #expect(typo.status == 78)
        #expect(typo.stderr.contains("unknown setting SHIPQUOTE_LISTN"))
    }

    /// Both TLS files or neither; an unreadable one is named; the password is never printed; a key
    /// that is not the certificate's stops the start with GnuTLS's reason. All exit 78.
    @Test(.enabled(if: Tool.path("openssl") != nil, "openssl is not installed (apt-get install openssl): no certificate to try"))
    func tlsSettingsComeInPairsAndARefusedPairExits78() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shipquote-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a", "b"] {
            let made = try Tool.run(try #require(Tool.path("openssl")),
                                    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                                     "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", folder.appendingPathComponent("\(name).key").path,
                                     "-out", folder.appendingPathComponent("\(name).pem").path], timeout: 60)
            try #require(made.status == 0, "openssl failed: \(made.stdout)")
        }
        let cert = folder.appendingPathComponent("a.pem").path, key = folder.appendingPathComponent("a.key").path
        let otherKey = folder.appendingPathComponent("b.key").path
        let base = ["gateway", "--bootstrap-servers", "127.0.0.1:1", "--listen", "127.0.0.1:0"]

        let alone = try Binary.run(base + ["--tls-cert-file", cert], timeout: 30)
        #expect(alone.status == 78)
        #expect(alone.stderr.contains("tls-key-file is required: tls-cert-file is set"), "\(alone.stderr)")
        let keyAlone = try Binary.run(base + ["--tls-key-file", key], timeout: 30)
        #expect(keyAlone.status == 78)
        #expect(keyAlone.stderr.contains("tls-cert-file is required: tls-key-file is set"), "\(keyAlone.stderr)")
        let missing = folder.appendingPathComponent("missing.pem").path
        let unreadable = try Binary.run(base + ["--tls-cert-file", missing, "--tls-key-file", key], timeout: 30)
        #expect(unreadable.status == 78)
        #expect(unreadable.stderr.contains("tls-cert-file \(missing): cannot be read"), "\(unreadable.stderr)")
        let text = folder.appendingPathComponent("notes.txt").path
        try "not a key\n".write(toFile: text, atomically: true, encoding: .utf8)
        let notPEM = try Binary.run(base + ["--tls-cert-file", cert, "--tls-key-file", text], timeout: 30)
        #expect(notPEM.status == 78)
        #expect(notPEM.stderr.contains("tls-key-file=\(text) (from flag --tls-key-file): expected a PEM file"), "\(notPEM.stderr)")

        let printed = try Binary.run(base + ["--tls-cert-file", cert, "--tls-key-file", key, "--print-config"],
                                     environment: ["SHIPQUOTE_TLS_KEY_PASSWORD": "hunter2"], timeout: 30)
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout.contains("tls-cert-file=\(cert)  # flag --tls-cert-file"))
        #expect(printed.stdout.contains("tls-key-password=[redacted]  # environment SHIPQUOTE_TLS_KEY_PASSWORD"))
        #expect(!printed.stdout.contains("hunter2"))

        let mismatched = try Binary.run(base + ["--tls-cert-file", cert, "--tls-key-file", otherKey], timeout: 30)
        #expect(mismatched.status == 78)
        #expect(mismatched.stderr.contains("The certificate and the given key do not match"), "\(mismatched.stderr)")

        // The right pair: the binary serves HTTPS, and only HTTPS, on its port.
        let curl = try #require(Tool.path("curl"), "curl is not installed (apt-get install curl)")
        let (broker, brokerOut, _) = try Binary.start(["broker", "--partitions", "2"])
        defer { Binary.stop(broker) }
        let bootstrap = try #require(Binary.firstLine(of: brokerOut, timeout: 20))
        let (gateway, _, gatewayErr) = try Binary.start(["gateway", "--bootstrap-servers", bootstrap, "--listen", "127.0.0.1:0",
                                                         "--tls-cert-file", cert, "--tls-key-file", key])
        defer { Binary.stop(gateway) }
        let port = try #require(HealthcheckCommandTests.listenPort(in: gatewayErr, timeout: 30))
        var ready = ""
        let deadline = Date().addingTimeInterval(20)
        while ready != "200" && Date() < deadline {
            ready = try Tool.run(curl, ["-s", "--cacert", cert, "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:\(port)/readyz"],
                                 timeout: 10).stdout
            if ready != "200" { usleep(50_000) }
        }
        #expect(ready == "200")
        let plain = try Tool.run(curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/readyz"], timeout: 10)
        #expect(plain.stdout == "000")
        gateway.terminate()
        #expect(Binary.awaitExit(gateway, timeout: 20))
        #expect(gateway.terminationStatus == 0)
    }
}
