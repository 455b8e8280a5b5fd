import Foundation

/// The rule sets a worker serves: one file, or a directory with one file per merchant,
/// selected by the request's `merchant`. With a single rule set the merchant may be absent.
public struct RuleLibrary: Sendable {
    /// In file-name order.
    public let ruleSets: [RuleSet]
    /// `sha256:<hex>` over every file's name and version: changes when any file does.
    public let version: String
    private let byMerchant: [String: Int]

    public init(_ ruleSets: [RuleSet]) throws(RulesError) {
        var index: [String: Int] = [:]
        if ruleSets.count > 1 {
            for (i, set) in ruleSets.enumerated() {
                guard let merchant = set.merchant else {
                    throw RulesError(kind: .missingKey, file: set.fileName, mark: SourceMark(line: 1, column: 1), field: "merchant",
                                     message: "missing; a directory of rules selects files by merchant, so each file names one")
                }
                if let other = index[merchant] {
                    throw RulesError(kind: .duplicate, file: set.fileName, mark: SourceMark(line: 1, column: 1), field: "merchant",
                                     message: "merchant '\(merchant)' is also served by \(ruleSets[other].fileName)")
                }
                index[merchant] = i
            }
        } else if let only = ruleSets.first, let merchant = only.merchant {
            index[merchant] = 0
        }
        self.ruleSets = ruleSets
        self.byMerchant = index
        let manifest = ruleSets.map { "\(($0.fileName as NSString).lastPathComponent) \($0.version)\n" }.joined()
        self.version = ruleSets.count == 1 ? ruleSets[0].version : "sha256:" + SHA256.hex(of: Array(manifest.utf8))
        // The address-name tables are built once a process (about 94 million instructions, some
        // 30 ms): here, while rules load, rather than in the first customer's quote.
        _ = AddressNormalizer.tables
    }

    /// The rate tables (CSV) the rule sets read, full paths: watching the rules means watching these too.
    public var rateFiles: [String] { ruleSets.flatMap(\.rateFiles) }

    /// Loads a rules file, or every `.yaml`/`.yml` file of a directory but case files.
    public static func load(path: String) throws(RulesError) -> RuleLibrary {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw RulesError(kind: .unreadable, file: path, mark: nil, field: "", message: "no such file or directory")
        }
        guard isDirectory.boolValue else { return try RuleLibrary([RuleSet.load(contentsOfFile: path)]) }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw RulesError(kind: .unreadable, file: path, mark: nil, field: "", message: "cannot list the directory")
        }
        // Golden case files (`cases.yaml`, `acme.cases.yaml`) may sit next to the rules; they are not rules.
        let files = names.filter { !$0.hasPrefix(".") && ($0.hasSuffix(".yaml") || $0.hasSuffix(".yml")) && !RulesCheck.isCaseFile($0) }.sorted()
        guard !files.isEmpty else {
            throw RulesError(kind: .unreadable, file: path, mark: nil, field: "", message: "the directory holds no .yaml rules files")
        }
        var sets: [RuleSet] = []
        for file in files { sets.append(try RuleSet.load(contentsOfFile: (path as NSString).appendingPathComponent(file))) }
        return try RuleLibrary(sets)
    }

    public enum Selection: Sendable {
        case ruleSet(RuleSet)
        case rejected(QuoteRejection)
    }

    /// The rule set for a merchant, or why there is none.
    public func select(merchant: String?) -> Selection {
        switch choose(merchant: merchant) {
        case .index(let i): return .ruleSet(ruleSets[i])
        case .rejected(let rejection): return .rejected(rejection)
        }
    }

    /// Which rule set serves `merchant`, by position.
    private enum Choice {
        case index(Int)
        case rejected(QuoteRejection)
    }

    private func choose(merchant: String?) -> Choice {
        if let merchant {
            if let i = byMerchant[merchant] { return .index(i) }
            if ruleSets.count == 1 && ruleSets[0].merchant == nil { return .index(0) }
            return .rejected(QuoteRejection(code: "MERCHANT_UNKNOWN", message: "no rules are loaded for this merchant"))
        }
        if ruleSets.count == 1 { return .index(0) }
        return .rejected(QuoteRejection(code: "MERCHANT_REQUIRED", message: "several merchants are served; the event must name one"))
    }

    /// Quotes without building the explain trace: this is the worker's hot path.
    public func quote(_ request: QuoteRequest) -> QuoteOutcome {
        switch choose(merchant: request.merchant) {
        case .index(let i): return ruleSets[i].quote(request)
        case .rejected(let rejection): return .rejected(rejection)
        }
    }

    public func explain(_ request: QuoteRequest) -> QuoteExplanation {
        switch select(merchant: request.merchant) {
        case .ruleSet(let set): return set.explain(request)
        case .rejected(let rejection): return QuoteExplanation(result: .rejected(rejection), trace: [rejection.message])
        }
    }
}
