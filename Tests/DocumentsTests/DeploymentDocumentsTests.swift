import Foundation
import QuoteContract
import ShippingRules
import Testing

/// What can be checked here of files that start containers elsewhere (no Docker engine or
/// Kubernetes cluster runs on these machines): they parse, and they name what README.md says.
@Suite struct DeploymentDocumentsTests {
    static func compose() throws -> YAMLNode { try YAMLNode.load(try Repository.text("docker-compose.yml")) }

    @Test func composeHasKafkaInKRaftModeTopicsTwoWorkersAndTheDemoGateway() throws {
        let services = try #require(try Self.compose()["services"])
        #expect(Set(services.keys) == ["kafka", "topics", "worker-1", "worker-2", "demo-gateway"])

        let kafka = try #require(services["kafka"])
        #expect(kafka["image"]?.text?.hasPrefix("apache/kafka:") == true)
        #expect(kafka["environment", "KAFKA_PROCESS_ROLES"]?.text == "broker,controller")
        #expect(kafka["environment", "KAFKA_CONTROLLER_QUORUM_VOTERS"] != nil)
        #expect(kafka["healthcheck"] != nil)
        #expect(kafka["ports"]?.items.compactMap(\.text) == ["127.0.0.1:29092:29092"])
        // The log on the volume: unset, the image writes to /tmp and a recreated container starts empty.
        let dataMount = try #require(kafka["volumes"]?.items.first?.text?.split(separator: ":").map(String.init))
        #expect(dataMount.first == "kafka-data")
        #expect(kafka["environment", "KAFKA_LOG_DIRS"]?.text == dataMount.last)

        for name in ["worker-1", "worker-2"] {
            let worker = try #require(services[name])
            #expect(worker["build", "dockerfile"]?.text == "deploy/Dockerfile", "\(name)")
            #expect(worker["environment", "SHIPQUOTE_BOOTSTRAP_SERVERS"]?.text == "kafka:9092", "\(name)")
            #expect(worker["environment", "SHIPQUOTE_METRICS_LISTEN"]?.text == "0.0.0.0:9464", "\(name)")
            #expect(worker["volumes"]?.items.compactMap(\.text) == ["./examples/rules:/etc/shipquote/rules:ro"], "\(name)")
            #expect(worker["depends_on", "topics", "condition"]?.text == "service_completed_successfully", "\(name)")
            let rules = try #require(worker["environment", "SHIPQUOTE_RULES"]?.text)
            #expect(FileManager.default.fileExists(atPath: Repository.url(rules.replacingOccurrences(of: "/etc/shipquote/rules", with: "examples/rules")).path))
            let grace = Int(worker["environment", "SHIPQUOTE_SHUTDOWN_GRACE"]?.text ?? "") ?? 0
            let stop = Int(worker["stop_grace_period"]?.text?.replacingOccurrences(of: "s", with: "") ?? "") ?? 0
            #expect(stop > grace, "\(name): docker must wait longer than the worker drains")
            // The image has no curl: the worker's healthcheck is the binary's own, on its listener.
            let check = worker["healthcheck", "test"]?.items.compactMap(\.text) ?? []
            #expect(Array(check.prefix(3)) == ["CMD", "/usr/local/bin/shipquote", "healthcheck"], "\(name)")
            let url = try #require(check.firstIndex(of: "--url").map { check[$0 + 1] })
            #expect(url.hasPrefix("http://127.0.0.1:9464/"), "\(name): the port SHIPQUOTE_METRICS_LISTEN opens")
        }
        // Published on the loopback interface only.
        #expect(services["worker-1", "ports"]?.items.compactMap(\.text) == ["127.0.0.1:9464:9464"])
        #expect(services["worker-2", "ports"]?.items.compactMap(\.text) == ["127.0.0.1:9465:9464"])
        for name in services.keys {
            for port in services[name, "ports"]?.items.compactMap(\.text) ?? [] {
                #expect(port.hasPrefix("127.0.0.1:"), "\(name): \(port) is published on every interface")
            }
        }

        let gateway = try #require(services["demo-gateway"])
        let command = gateway["command"]?.items.compactMap(\.text) ?? []
        #expect(command.first == "send")
        let event = try #require(command.firstIndex(of: "--event").map { command[$0 + 1] })
        #expect(gateway["volumes"]?.items.compactMap(\.text) == ["./examples/events:/etc/shipquote/events:ro"])
        #expect(FileManager.default.fileExists(atPath: Repository.url(event.replacingOccurrences(of: "/etc/shipquote/events", with: "examples/events")).path))
        #expect(try Self.compose()["volumes"]?.keys == ["kafka-data"])
    }

    /// The topic service creates the contract's four topics: input, replies and state with one
    /// partition count, the state compacted, the dead letters in one partition.
    @Test func composeCreatesTheTopicsWithTheRightPartitionsAndCompaction() throws {
        let script = try #require(try Self.compose()["services", "topics", "command"]?.items.first?.text)
        var partitions: [String: Int] = [:]
        var configs: [String: [String]] = [:]
        for line in script.split(separator: "\n") where line.contains("--topic ") {
            let words = line.split(separator: " ").map(String.init)
            guard let topic = words.firstIndex(of: "--topic").map({ words[$0 + 1] }) else { continue }
            partitions[topic] = words.firstIndex(of: "--partitions").flatMap { Int(words[$0 + 1]) }
            configs[topic] = words.indices.filter { words[$0] == "--config" }.map { words[$0 + 1] }
        }
        let topics = Topics.defaults
        #expect(Set(partitions.keys) == [topics.addressChanged, topics.quoteReplies, topics.deadLetters, topics.quoteState])
        #expect(partitions[topics.deadLetters] == 1)
        #expect(partitions[topics.quoteReplies] == partitions[topics.addressChanged])
        #expect(partitions[topics.quoteState] == partitions[topics.addressChanged])
        #expect(configs[topics.quoteState] == ["cleanup.policy=compact"])
    }

    /// This machine is Debian 12 (bookworm), like the Dockerfile's images: apt-cache says whether
    /// every package it installs exists there.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-cache")))
    func theDockerfilesPackagesExistInDebianBookworm() throws {
        let dockerfile = try Repository.text("deploy/Dockerfile")
        let froms = dockerfile.split(separator: "\n").filter { $0.hasPrefix("FROM ") }.map(String.init)
        #expect(froms.count == 2, "multi-stage: build and runtime")
        #expect(dockerfile.contains("ARG SWIFT_IMAGE=swift:6.") && dockerfile.contains("-bookworm"))
        #expect(froms.last == "FROM debian:bookworm-slim")
        #expect(dockerfile.contains("\nUSER 10001"), "the runtime runs as a non-root user")

        // Every word after `apt-get install` and its options, up to the end of that command.
        var packages: [String] = []
        for command in dockerfile.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n") {
            for part in command.components(separatedBy: "&&") where part.contains("apt-get install") {
                let words = part.components(separatedBy: "apt-get install")[1].split(separator: " ").map(String.init)
                packages += words.filter { !$0.hasPrefix("-") }
            }
        }
        #expect(Set(packages).isSuperset(of: ["librdkafka-dev", "libyaml-dev", "libmicrohttpd-dev",
                                              "librdkafka1", "libyaml-0-2", "libmicrohttpd12"]))
        let os = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        try #require(os.contains("VERSION_CODENAME=bookworm"), "only a bookworm machine can answer for bookworm")
        for package in packages {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/apt-cache")
            process.arguments = ["show", "--no-all-versions", package]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0 && text.contains("Package: \(package)"), "\(package) is not in this machine's Debian")
        }
    }

    @Test func kubernetesProbesGraceResourcesAndScaling() throws {
        let deployment = try YAMLNode.load(try Repository.text("deploy/kubernetes/base/deployment.yaml"))
        let pod = try #require(deployment["spec", "template", "spec"])
        let container = try #require(pod["containers"]?.items.first)
        #expect(container["livenessProbe", "httpGet", "path"]?.text == "/healthz")
        #expect(container["readinessProbe", "httpGet", "path"]?.text == "/readyz")
        #expect(container["resources", "requests", "cpu"] != nil && container["resources", "requests", "memory"] != nil)
        let env = Dictionary(uniqueKeysWithValues: container["env"]!.items.compactMap { e in e["name"]?.text.map { ($0, e) } })
        let grace = Int(env["SHIPQUOTE_SHUTDOWN_GRACE"]?["value"]?.text ?? "") ?? 0
        let termination = Int(pod["terminationGracePeriodSeconds"]?.text ?? "") ?? 0
        #expect(grace > 0 && termination > grace, "Kubernetes must wait longer than the worker drains")
        #expect(env["SHIPQUOTE_METRICS_LISTEN"]?["value"]?.text == "0.0.0.0:9464")
        #expect(env["SHIPQUOTE_KAFKA_SASL_PASSWORD"]?["valueFrom", "secretKeyRef"] != nil, "secrets come from a Secret")
        #expect(pod["securityContext", "runAsNonRoot"]?.text == "true")

        let service = try YAMLNode.load(try Repository.text("deploy/kubernetes/base/service.yaml"))
        #expect(service["spec", "ports"]?.items.first?["port"]?.text == "9464")
        let pdb = try YAMLNode.load(try Repository.text("deploy/kubernetes/base/pod-disruption-budget.yaml"))
        #expect(pdb["kind"]?.text == "PodDisruptionBudget")

        let keda = try YAMLNode.loadAll(try Repository.text("deploy/kubernetes/overlays/keda/keda-scaledobject.yaml"))
        let scaled = try #require(keda.first { $0["kind"]?.text == "ScaledObject" })
        let trigger = try #require(scaled["spec", "triggers"]?.items.first)
        #expect(trigger["type"]?.text == "kafka")
        #expect(trigger["metadata", "topic"]?.text == Topics.defaultAddressChanged)
        #expect(trigger["metadata", "consumerGroup"]?.text == env["SHIPQUOTE_GROUP"]?["value"]?.text)
        // Replicas above the partition count sit idle; the compose file's partition count is the reference.
        #expect(scaled["spec", "maxReplicaCount"]?.text == "8")
        #expect(try Repository.text("deploy/kubernetes/overlays/keda/keda-scaledobject.yaml").contains("sit idle"))
    }

    @Test func theRulesConfigMapHoldsRulesTheLoaderAccepts() throws {
        let configMap = try YAMLNode.load(try Repository.text("deploy/kubernetes/base/configmap-rules.yaml"))
        let deployment = try YAMLNode.load(try Repository.text("deploy/kubernetes/base/deployment.yaml"))
        let volumes = deployment["spec", "template", "spec", "volumes"]?.items ?? []
        #expect(volumes.contains { $0["configMap", "name"]?.text == configMap["metadata", "name"]?.text })
        let data = try #require(configMap["data"])
        #expect(!data.keys.isEmpty)
        for key in data.keys {
            let text = try #require(data[key]?.text)
            #expect(throws: Never.self, "\(key)") { try RuleSet.load(yaml: text, fileName: key) }
        }
    }
}
