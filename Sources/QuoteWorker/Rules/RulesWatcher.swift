import Foundation
import ShippingRules
import Synchronization

/// Reloads the rules when asked (SIGHUP) and when the files change. Changes are found by looking
/// at the files' sizes and modification times every few seconds: that also sees a Kubernetes
/// ConfigMap update, which swaps a symlink rather than writing the file.
public final class RulesWatcher: Sendable {
    private let rules: ReloadableRules
    private let metrics: WorkerMetrics
    private let logger: Logger
    private let interval: Duration
    private let running = Atomic<Bool>(true)
    private let lastFingerprint: Mutex<String>

    public init(rules: ReloadableRules, metrics: WorkerMetrics, logger: Logger, interval: Duration = .seconds(2)) {
        self.rules = rules
        self.metrics = metrics
        self.logger = logger
        self.interval = interval
        lastFingerprint = Mutex(Self.fingerprint(rules.path, rateFiles: rules.library.rateFiles))
    }

    /// Starts looking at the files on a thread of its own, until `stop`.
    public func start() {
        let thread = Thread { [self] in
            while running.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18)
                let now = Self.fingerprint(rules.path, rateFiles: rules.library.rateFiles)
                let changed = lastFingerprint.withLock { last in
                    defer { last = now }
                    return last != now
                }
                if changed { reload(reason: "files changed") }
            }
        }
        thread.name = "rules-watcher"
        thread.start()
    }

    public func stop() { running.store(false, ordering: .releasing) }

    /// Loads the rules again now; logs and counts the outcome.
    public func reload(reason: String) {
        do {
            switch try rules.reload() {
            case .unchanged:
                logger.info("rules reloaded; unchanged", ["reason": .text(reason), "rules_version": .text(rules.version)])
            case .replaced(let version):
                metrics.rulesLoaded(version: version)
                logger.info("rules replaced", ["reason": .text(reason), "rules_version": .text(version)])
            }
        } catch {
            metrics.rulesReloadFailed()
            logger.error("rules reload failed; the rules in force stay", ["reason": .text(reason), "detail": .text(error.description),
                                                                          "rules_version": .text(rules.version)])
        }
    }

    /// Names, sizes and modification times of the rules files and of the rate tables they read
    /// (following symlinks): a CSV changed in `rates/` is a change of the rules.
    static func fingerprint(_ path: String, rateFiles: [String] = []) -> String {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { return "missing" }
        let files = isDirectory.boolValue
            ? ((try? fm.contentsOfDirectory(atPath: path)) ?? []).sorted().map { (path as NSString).appendingPathComponent($0) }
            : [path]
        return (files + rateFiles).map { file in
            let attributes = (try? fm.attributesOfItem(atPath: (file as NSString).resolvingSymlinksInPath)) ?? [:]
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(file) \(size) \(modified)"
        }.joined(separator: "\n")
    }
}
