import Foundation
import Testing

/// Issue 5, privacy: the binary's logs (its own and librdkafka's, at debug level) are one JSON
/// object a line and never carry an address or a cart, and `--print-config` never shows a secret.
@Suite struct LogPrivacyTests {
    /// What the demo's customer types and buys (DemoCommand, DemoCheckout).
    static let demoPersonalData = ["Cupertino", "San Francisco", "New York", "Austin", "Toronto", "Los Angeles",
                                   "M5V", "T-shirt", "Mug"]
    static let demoPostalCodes = ["95014", "94107", "10001", "78701", "90012"]

    @Test func theDemoAtDebugLevelLogsJSONLinesWithoutAddressesOrCarts() throws {
        let result = try Binary.run(["demo", "--log-level", "debug"], timeout: 120)
        #expect(result.status == 0, "demo failed: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count > 5, "the demo at debug level should log")
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8))
            #expect(object is [String: Any], "not one JSON object: \(line.prefix(200))")
            // OpenTelemetry's log data model names (README, Logs), and no field without a value.
            if let fields = object as? [String: Any] {
                #expect(fields["timestamp"] is String && fields["body"] is String && fields["service.name"] as? String == "shipquote",
                        "not the OpenTelemetry names: \(line.prefix(200))")
                #expect(["DEBUG", "INFO", "WARN", "ERROR"].contains(fields["severity_text"] as? String ?? ""), "\(line.prefix(200))")
                #expect([5, 9, 13, 17].contains(fields["severity_number"] as? Int ?? 0), "\(line.prefix(200))")
                #expect(!fields.values.contains { ($0 as? String)?.isEmpty == true }, "an empty field: \(line.prefix(300))")
            }
            for word in Self.demoPersonalData { #expect(!line.contains(word), "a log line carries personal data: \(line.prefix(300))") }
            for code in Self.demoPostalCodes { #expect(!Self.contains(line, number: code), "a log line carries a postal code: \(line.prefix(300))") }
        }
        print("privacy, demo: \(lines.count) stderr lines at debug level, each one JSON object, none with an address or cart")
    }

    /// A postal code as a token of its own (not a piece of a longer number such as a timestamp).
    static func contains(_ line: String, number: String) -> Bool {
        var rest = line[...]
        while let range = rest.range(of: number) {
            let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
            let after = range.upperBound == line.endIndex ? nil : line[range.upperBound]
            if !(before?.isNumber ?? false) && !(after?.isNumber ?? false) { return true }
            rest = line[range.upperBound...]
        }
        return false
    }

    @Test func printConfigRedactsSecretsFromFlagsEnvironmentConfigFileAndPropertiesFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shipquote-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("shipquote.conf")
        try """
        kafka.security.protocol=SASL_SSL
        kafka.sasl.mechanisms=SCRAM-SHA-512
        kafka.ssl.key.password=file-secret-1
        """.write(to: config, atomically: true, encoding: .utf8)
        let properties = directory.appendingPathComponent("client.properties")
        try """
        ssl.keystore.password=props-secret-2
        sasl.oauthbearer.client.secret=props-secret-3
        ssl.certificate.location=/etc/shipquote/client.pem
        """.write(to: properties, atomically: true, encoding: .utf8)

        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SHIPQUOTE_") }
        environment["SHIPQUOTE_KAFKA_SASL_OAUTHBEARER_CONFIG"] = "principal=shipquote env-secret-4"
        environment["SHIPQUOTE_KAFKA_SASL_USERNAME"] = "shipquote-user"
        let result = try Self.run(["run", "--print-config", "--rules", Binary.exampleRules, "--bootstrap-servers", "127.0.0.1:1",
                                   "--config", config.path, "--kafka-properties", properties.path,
                                   "-X", "sasl.password=flag-secret-5", "-X", "ssl.key.pem=-----BEGIN PRIVATE KEY----- pem-secret-6"],
                                  environment: environment)
        #expect(result.status == 0, "print-config failed: \(result.stderr)")
        for secret in ["file-secret-1", "props-secret-2", "props-secret-3", "env-secret-4", "flag-secret-5", "pem-secret-6"] {
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "\(secret) is shown")
        }
        let out = result.stdout
        #expect(out.contains("kafka.ssl.key.password=[redacted]  # \(config.path):3"))
        #expect(out.contains("kafka.ssl.keystore.password=[redacted]  # "))
        #expect(out.contains("kafka.sasl.oauthbearer.client.secret=[redacted]  # "))
        #expect(out.contains("kafka.sasl.oauthbearer.config=[redacted]  # environment SHIPQUOTE_KAFKA_SASL_OAUTHBEARER_CONFIG"))
        #expect(out.contains("kafka.sasl.password=[redacted]  # flag -X"))
        #expect(out.contains("kafka.ssl.key.pem=[redacted]  # flag -X"))
        // What is not a secret stays visible, so the operator can check it.
        #expect(out.contains("kafka.sasl.username=shipquote-user"))
        #expect(out.contains("kafka.security.protocol=SASL_SSL"))
        #expect(out.contains("kafka.ssl.certificate.location=/etc/shipquote/client.pem"))
    }

    static func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = Binary.url
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = Binary.collect(process, [out, err], timeout: 30)
        return (process.terminationStatus, String(decoding: output[0], as: UTF8.self), String(decoding: output[1], as: UTF8.self))
    }
}
