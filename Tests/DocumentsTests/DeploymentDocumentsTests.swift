import Foundation
import QuoteContract
import ShippingRules
import Testing

/// What can be checked here of files that start containers elsewhere (no Docker engine or
/// Kubernetes cluster runs on these machines): they parse, and they name what README.md says.
@Suite struct DeploymentDocumentsTests {
    static func compose() throws -> YAMLNode { try YAMLNode.load(try Repository.text("docker-compose.yml")) }

    @Test func composeHasKafkaInKRaftModeTopicsTwoWorkersTheHTTPGatewayAndTheDemoGateway() throws {
        let services = try #require(try Self.compose()["services"])
        #expect(Set(services.keys) == ["kafka", "topics", "worker-1", "worker-2", "gateway", "demo-gateway"])

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

    /// `shipquote gateway` in front of the workers: the workers' image, after the broker and the
    /// topics, its port published on the loopback, healthy when /readyz answers on that port, and
    /// given longer than its drain before SIGKILL.
    @Test func composeRunsTheHTTPGatewayOnPort8080WithItsReadinessAsHealth() throws {
        let services = try #require(try Self.compose()["services"])
        let gateway = try #require(services["gateway"])
        #expect(gateway["image"]?.text == "shipquote:dev")
        #expect(gateway["image"]?.text == services["worker-1", "image"]?.text, "the image the workers build")
        #expect(gateway["command"]?.items.compactMap(\.text) == ["gateway"])
        #expect(gateway["environment", "SHIPQUOTE_BOOTSTRAP_SERVERS"]?.text == "kafka:9092")
        #expect(gateway["environment", "SHIPQUOTE_LISTEN"]?.text == "0.0.0.0:8080")
        #expect(gateway["ports"]?.items.compactMap(\.text) == ["127.0.0.1:8080:8080"])
        #expect(gateway["depends_on", "kafka", "condition"]?.text == "service_healthy")
        #expect(gateway["depends_on", "topics", "condition"]?.text == "service_completed_successfully")
        let check = gateway["healthcheck", "test"]?.items.compactMap(\.text) ?? []
        #expect(check == ["CMD", "/usr/local/bin/shipquote", "healthcheck", "--url", "http://127.0.0.1:8080/readyz", "--timeout", "3"])
        let grace = Int(gateway["environment", "SHIPQUOTE_SHUTDOWN_GRACE"]?.text ?? "") ?? 0
        let stop = Int(gateway["stop_grace_period"]?.text?.replacingOccurrences(of: "s", with: "") ?? "") ?? 0
        #expect(grace > 0 && stop > grace, "docker must wait longer than the gateway drains")
        // Only the gateway's own settings and librdkafka's: anything else would stop it (exit 78).
        for key in gateway["environment"]?.keys ?? [] {
            #expect(["SHIPQUOTE_BOOTSTRAP_SERVERS", "SHIPQUOTE_LISTEN", "SHIPQUOTE_SHUTDOWN_GRACE", "SHIPQUOTE_LOG_LEVEL"].contains(key)
                    || key.hasPrefix("SHIPQUOTE_KAFKA_"), "\(key)")
        }
        #expect(try Repository.text("README.md").contains("| `gateway` | `shipquote gateway`, the HTTP quote API"), "README's compose table")
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

    /// OCI labels from build arguments, a healthcheck the image can run without curl, and a
    /// group of its own for uid 10001. Every hadolint ignore pragma is explained in a comment.
    @Test func theDockerfileLabelsChecksHealthAndNamesItsGroup() throws {
        let dockerfile = try Repository.text("deploy/Dockerfile")
        for (label, argument) in [("version", "VERSION"), ("revision", "REVISION"), ("source", "SOURCE"), ("licenses", "LICENSES")] {
            #expect(dockerfile.contains("org.opencontainers.image.\(label)=\"${\(argument)}\""), "\(label)")
            #expect(dockerfile.contains("\nARG \(argument)="), "\(argument) has a default")
        }
        let healthcheck = try #require(dockerfile.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n")
            .first { $0.hasPrefix("HEALTHCHECK ") })
        #expect(healthcheck.contains("CMD [\"/usr/local/bin/shipquote\", \"healthcheck\""))
        #expect(healthcheck.contains("http://127.0.0.1:9464/healthz") && dockerfile.contains("SHIPQUOTE_METRICS_LISTEN=0.0.0.0:9464"))
        #expect(dockerfile.contains("groupadd --system --gid 10001 shipquote"))
        #expect(dockerfile.contains("useradd --system --uid 10001 --gid 10001"))
        #expect(dockerfile.contains("\nUSER 10001:10001"))
        for line in dockerfile.split(separator: "\n") where line.contains("hadolint ignore=") {
            for rule in line.components(separatedBy: "ignore=")[1].split(separator: ",") {
                #expect(dockerfile.contains("(hadolint \(rule)"), "hadolint ignore=\(rule) has no comment saying why")
            }
        }
    }

    /// What Pod Security's "restricted" profile asks of a pod, and the token the worker never uses.
    @Test(arguments: ["deploy/kubernetes/base/deployment.yaml", "deploy/kubernetes/base/gateway-deployment.yaml"])
    func theKubernetesPodMeetsPodSecurityRestricted(file: String) throws {
        let deployment = try YAMLNode.load(try Repository.text(file))
        let pod = try #require(deployment["spec", "template", "spec"])
        #expect(pod["automountServiceAccountToken"]?.text == "false")
        #expect(pod["securityContext", "runAsNonRoot"]?.text == "true")
        #expect(pod["securityContext", "seccompProfile", "type"]?.text == "RuntimeDefault")
        #expect(pod["hostNetwork"] == nil && pod["hostPID"] == nil && pod["hostIPC"] == nil)
        for volume in pod["volumes"]?.items ?? [] {
            #expect(volume["hostPath"] == nil, "restricted allows no hostPath volume")
        }
        let containers = (pod["containers"]?.items ?? []) + (pod["initContainers"]?.items ?? [])
        #expect(!containers.isEmpty)
        for container in containers {
            let name = container["name"]?.text ?? "?"
            let context = try #require(container["securityContext"], "\(name)")
            #expect(context["allowPrivilegeEscalation"]?.text == "false", "\(name)")
            #expect(context["capabilities", "drop"]?.items.compactMap(\.text) == ["ALL"], "\(name)")
            #expect(context["capabilities", "add"] == nil, "\(name)")
            #expect(context["readOnlyRootFilesystem"]?.text == "true", "\(name)")
            #expect(context["privileged"]?.text != "true" && context["runAsUser"]?.text != "0", "\(name)")
            #expect(context["seccompProfile", "type"].map { ["RuntimeDefault", "Localhost"].contains($0.text ?? "") } ?? true, "\(name)")
            for port in container["ports"]?.items ?? [] { #expect(port["hostPort"] == nil, "\(name)") }
        }
    }

    /// The base applies on any cluster (built-in kinds, a fixed replica count); the keda overlay
    /// adds KEDA's objects and removes `spec.replicas`, which the HPA then owns. Every reference of
    /// every kustomization resolves. (`kubectl kustomize` builds them too when it is on PATH.)
    @Test func kedaLivesInAnOverlayThatLeavesTheReplicaCountToIt() throws {
        let root = "deploy/kubernetes"
        for folder in [root, "\(root)/base", "\(root)/overlays/keda"] {
            let kustomization = try YAMLNode.load(try Repository.text("\(folder)/kustomization.yaml"))
            for resource in kustomization["resources"]?.items.compactMap(\.text) ?? [] {
                let path = URL(fileURLWithPath: Repository.url(folder).path).appendingPathComponent(resource).standardized.path
                var isFolder: ObjCBool = false
                #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), "\(folder): \(resource)")
                if isFolder.boolValue {
                    #expect(FileManager.default.fileExists(atPath: path + "/kustomization.yaml"), "\(folder): \(resource)")
                    #expect(!Repository.url(folder).standardized.path.hasPrefix(path + "/"), "\(folder): an overlay may not build on a folder holding it")
                } else {
                    #expect(throws: Never.self, "\(folder)/\(resource)") { _ = try YAMLNode.loadAll(try String(contentsOfFile: path, encoding: .utf8)) }
                }
            }
        }
        let base = try YAMLNode.load(try Repository.text("\(root)/base/kustomization.yaml"))
        for file in base["resources"]?.items.compactMap(\.text) ?? [] {
            for document in try YAMLNode.loadAll(try Repository.text("\(root)/base/\(file)")) {
                #expect(document["apiVersion"]?.text?.contains("keda.sh") != true, "\(file): KEDA's kinds stay out of the base")
            }
        }
        let deployment = try YAMLNode.load(try Repository.text("\(root)/base/deployment.yaml"))
        #expect(Int(deployment["spec", "replicas"]?.text ?? "") ?? 0 >= 1, "the base runs a fixed count")

        let overlay = try YAMLNode.load(try Repository.text("\(root)/overlays/keda/kustomization.yaml"))
        #expect(overlay["resources"]?.items.compactMap(\.text).contains("../../base") == true)
        #expect(overlay["resources"]?.items.compactMap(\.text).contains("secret-example.yaml") == false, "placeholders must never be applied")
        let patch = try #require(overlay["patches"]?.items.first { $0["target", "kind"]?.text == "Deployment" })
        let operations = try YAMLNode.load(try #require(patch["patch"]?.text))
        #expect(operations.items.contains { $0["op"]?.text == "remove" && $0["path"]?.text == "/spec/replicas" })
    }

    /// The keys of the Secret `shipquote-kafka`: what KEDA's TriggerAuthentication and the
    /// Deployment read, all in the example and named in README.md.
    @Test func theExampleSecretHoldsEveryKeyItsReadersNeed() throws {
        let secret = try YAMLNode.load(try Repository.text("deploy/kubernetes/overlays/keda/secret-example.yaml"))
        #expect(secret["kind"]?.text == "Secret")
        let name = try #require(secret["metadata", "name"]?.text)
        let keys = Set(secret["stringData"]?.keys ?? [])
        let keda = try YAMLNode.loadAll(try Repository.text("deploy/kubernetes/overlays/keda/keda-scaledobject.yaml"))
        let authentication = try #require(keda.first { $0["kind"]?.text == "TriggerAuthentication" })
        var needed: Set<String> = []
        for reference in authentication["spec", "secretTargetRef"]?.items ?? [] where reference["name"]?.text == name {
            needed.insert(try #require(reference["key"]?.text))
        }
        let deployment = try YAMLNode.load(try Repository.text("deploy/kubernetes/base/deployment.yaml"))
        for env in deployment["spec", "template", "spec", "containers"]?.items.first?["env"]?.items ?? [] {
            if let reference = env["valueFrom", "secretKeyRef"], reference["name"]?.text == name { needed.insert(reference["key"]?.text ?? "") }
        }
        #expect(needed == ["sasl", "username", "password", "tls"])
        #expect(keys == needed)
        let readme = try Repository.text("README.md")
        for key in needed { #expect(readme.contains("`\(key)`"), "README names the Secret's key \(key)") }
        #expect(readme.contains("secret-example.yaml"))
    }

    /// The worker's own group timings (session 6 s, heartbeat 1 s, poll interval 30 s) are the
    /// defaults; no deployment file sets librdkafka's, in any spelling. The note on static
    /// membership stays beside the Deployment's environment.
    @Test func noDeploymentFileOverridesTheGroupTimings() throws {
        let files = ["docker-compose.yml", "deploy/Dockerfile", "deploy/shipquote.conf"]
            + (FileManager.default.enumerator(atPath: Repository.url("deploy/kubernetes").path)?.compactMap { $0 as? String }
                .filter { $0.hasSuffix(".yaml") }.map { "deploy/kubernetes/\($0)" } ?? [])
        #expect(files.count >= 8)
        for file in files {
            for line in try Repository.text(file).split(separator: "\n") {
                let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                let normalized = code.lowercased().replacingOccurrences(of: "_", with: ".").replacingOccurrences(of: "-", with: ".")
                for property in ["session.timeout.ms", "heartbeat.interval.ms", "max.poll.interval.ms"] {
                    #expect(!normalized.contains(property), "\(file): \(line)")
                }
            }
        }
        let deployment = try Repository.text("deploy/kubernetes/base/deployment.yaml")
        #expect(deployment.contains("SHIPQUOTE_GROUP_INSTANCE_ID") && deployment.contains("StatefulSet"))
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

    /// The gateway's Deployment and Service: probes on the port it listens on, a drain shorter than
    /// Kubernetes' wait, resources, and labels of its own (the workers' selector, PodDisruptionBudget
    /// and metrics Service never take a gateway pod, nor the gateway's a worker).
    @Test func kubernetesRunsTheGatewayBehindAServiceWithItsProbesAndDrain() throws {
        let base = try YAMLNode.load(try Repository.text("deploy/kubernetes/base/kustomization.yaml"))
        let resources = base["resources"]?.items.compactMap(\.text) ?? []
        #expect(resources.contains("gateway-deployment.yaml") && resources.contains("gateway-service.yaml")
                && resources.contains("gateway-pod-disruption-budget.yaml"))

        let deployment = try YAMLNode.load(try Repository.text("deploy/kubernetes/base/gateway-deployment.yaml"))
        #expect(deployment["kind"]?.text == "Deployment")
        #expect(deployment["metadata", "name"]?.text == "shipquote-gateway")
        #expect(Int(deployment["spec", "replicas"]?.text ?? "") ?? 0 >= 2, "one replica down leaves the API served")
        let pod = try #require(deployment["spec", "template", "spec"])
        let container = try #require(pod["containers"]?.items.first)
        #expect(container["args"]?.items.compactMap(\.text) == ["gateway"])
        let env = Dictionary(uniqueKeysWithValues: container["env"]!.items.compactMap { e in e["name"]?.text.map { ($0, e) } })
        #expect(env["SHIPQUOTE_LISTEN"]?["value"]?.text == "0.0.0.0:8080")
        #expect(env["SHIPQUOTE_RULES"] == nil && env["SHIPQUOTE_METRICS_LISTEN"] == nil, "the worker's settings are not the gateway's")
        #expect(env["SHIPQUOTE_KAFKA_SASL_PASSWORD"]?["valueFrom", "secretKeyRef", "name"]?.text == "shipquote-kafka")
        let port = try #require(container["ports"]?.items.first)
        #expect(port["name"]?.text == "http" && port["containerPort"]?.text == "8080")
        #expect(container["readinessProbe", "httpGet", "path"]?.text == "/readyz")
        #expect(container["readinessProbe", "httpGet", "port"]?.text == "http")
        #expect(container["livenessProbe", "httpGet", "path"]?.text == "/healthz")
        #expect(container["livenessProbe", "httpGet", "port"]?.text == "http")
        #expect(container["resources", "requests", "cpu"] != nil && container["resources", "requests", "memory"] != nil)
        #expect(container["resources", "limits", "memory"] != nil)
        let grace = Int(env["SHIPQUOTE_SHUTDOWN_GRACE"]?["value"]?.text ?? "") ?? 0
        let termination = Int(pod["terminationGracePeriodSeconds"]?.text ?? "") ?? 0
        #expect(grace > 0 && termination > grace, "Kubernetes must wait longer than the gateway drains")

        let labels = deployment["spec", "template", "metadata", "labels", "app.kubernetes.io/name"]?.text
        #expect(labels == "shipquote-gateway")
        #expect(deployment["spec", "selector", "matchLabels", "app.kubernetes.io/name"]?.text == labels)
        let worker = try YAMLNode.load(try Repository.text("deploy/kubernetes/base/deployment.yaml"))
        let workerLabel = worker["spec", "selector", "matchLabels", "app.kubernetes.io/name"]?.text
        #expect(workerLabel != nil && workerLabel != labels)
        let pdb = try YAMLNode.load(try Repository.text("deploy/kubernetes/base/pod-disruption-budget.yaml"))
        #expect(pdb["spec", "selector", "matchLabels", "app.kubernetes.io/name"]?.text == workerLabel)

        let gatewayBudget = try YAMLNode.load(try Repository.text("deploy/kubernetes/base/gateway-pod-disruption-budget.yaml"))
        #expect(gatewayBudget["kind"]?.text == "PodDisruptionBudget")
        #expect(gatewayBudget["spec", "maxUnavailable"]?.text == "1")
        #expect(gatewayBudget["spec", "selector", "matchLabels", "app.kubernetes.io/name"]?.text == labels)

        let service = try YAMLNode.load(try Repository.text("deploy/kubernetes/base/gateway-service.yaml"))
        #expect(service["kind"]?.text == "Service")
        #expect(service["spec", "selector", "app.kubernetes.io/name"]?.text == labels)
        let servicePort = try #require(service["spec", "ports"]?.items.first)
        #expect(servicePort["port"]?.text == "8080" && servicePort["targetPort"]?.text == "http")
        #expect(service["metadata", "annotations", "prometheus.io/path"]?.text == "/metrics")
        let workers = try YAMLNode.load(try Repository.text("deploy/kubernetes/base/service.yaml"))
        #expect(workers["spec", "selector", "app.kubernetes.io/name"]?.text == workerLabel)
        let readme = try Repository.text("README.md")
        #expect(readme.contains("Deployment `shipquote-gateway`") && readme.contains("Service `shipquote-gateway` on 8080"))
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
