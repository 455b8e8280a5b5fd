import Foundation
import Kafka
import Testing

@Suite struct KafkaConfigurationTests {
    @Test func assignmentsSplitAtTheFirstEqualsSign() throws {
        var config = KafkaConfiguration()
        try config.apply(assignments: ["sasl.jaas.config=a=b", "linger.ms=1"])
        #expect(config["sasl.jaas.config"] == "a=b")
        #expect(config["linger.ms"] == "1")
    }

    @Test func anAssignmentWithoutEqualsSignIsRefused() {
        var config = KafkaConfiguration()
        #expect(throws: KafkaError.self) { try config.apply(assignments: ["linger.ms"]) }
    }

    @Test func propertiesFilesSkipCommentsAndNameTheBadLine() throws {
        let path = NSTemporaryDirectory() + "shipquote-\(UUID().uuidString).properties"
        try "# comment\n! also\n\nsecurity.protocol = SASL_SSL\nsasl.password=hunter2\n".write(toFile: path, atomically: true, encoding: .utf8)
        let config = try KafkaConfiguration.load(propertiesFile: path)
        #expect(config.properties == ["security.protocol": "SASL_SSL", "sasl.password": "hunter2"])
        try "ok=1\nbroken line\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            _ = try KafkaConfiguration.load(propertiesFile: path)
        } throws: { error in
            (error as? KafkaError)?.message == "properties file \(path):2: expected key=value"
        }
    }

    @Test func secretsAreRedactedWhenPrinted() {
        let config = KafkaConfiguration(["sasl.password": "hunter2", "ssl.key.password": "x", "bootstrap.servers": "b:9092"])
        #expect(config.redacted.map { "\($0.key)=\($0.value)" } ==
                ["bootstrap.servers=b:9092", "sasl.password=[redacted]", "ssl.key.password=[redacted]"])
    }

    @Test func laterSourcesWin() {
        let merged = KafkaConfiguration(["a": "1", "b": "1"]).merging(KafkaConfiguration(["b": "2"]))
        #expect(merged.properties == ["a": "1", "b": "2"])
    }
}
