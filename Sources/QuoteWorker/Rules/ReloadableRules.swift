import Foundation
import ShippingRules
import Synchronization

/// The merchants' rules in force, replaced whole when the files change. A file that fails to load
/// leaves the rules in force untouched: a typo in production must not take quoting down.
public final class ReloadableRules: QuoteEngine, Sendable {
    public let path: String
    private let current: Mutex<RuleLibrary>

    public enum Reload: Equatable, Sendable {
        case unchanged
        case replaced(version: String)
    }

    public init(path: String) throws(RulesError) {
        self.path = path
        current = Mutex(try RuleLibrary.load(path: path))
    }

    public var library: RuleLibrary { current.withLock { $0 } }
    public var version: String { library.version }

    public func quote(_ request: QuoteRequest) -> QuoteOutcome { library.quote(request) }

    /// Loads the files again; the new rules take over only if every file loads.
    public func reload() throws(RulesError) -> Reload {
        let fresh = try RuleLibrary.load(path: path)
        return current.withLock { library in
            guard fresh.version != library.version else { return .unchanged }
            library = fresh
            return .replaced(version: fresh.version)
        }
    }
}
