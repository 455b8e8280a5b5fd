import Foundation

/// A merchant's golden cases (`cases.yaml`), read with the rules' own YAML reader so that every
/// error names file, line, column and field. The format is documented in examples/rules/README.md.
public struct RuleCaseFile: Sendable {
    public let fileName: String
    public let cases: [RuleCase]

    public static func load(contentsOfFile path: String) throws(RulesError) -> RuleCaseFile {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw RulesError(kind: .unreadable, file: path, mark: nil, field: "", message: "cannot read the case file (missing, not permitted or not UTF-8)")
        }
        return try load(yaml: text, fileName: path)
    }

    public static func load(yaml: String, fileName: String) throws(RulesError) -> RuleCaseFile {
        let root: YAMLNode
        do { root = try YAMLParser.parse(yaml) } catch { throw error.rulesError(file: fileName) }
        return RuleCaseFile(fileName: fileName, cases: try RuleCaseReader(file: fileName).cases(root))
    }

    /// Quotes every case with `rules` and compares.
    public func run(against rules: RuleSet) -> [RuleCaseResult] {
        cases.map { RuleCaseCheck.run($0, rules: rules) }
    }
}

/// How one case fared: passed when nothing differed.
public struct RuleCaseResult: Sendable, CustomStringConvertible {
    public let name: String
    public let mark: SourceMark
    /// Each difference as `field: expected X, got Y`.
    public let differences: [String]

    public var passed: Bool { differences.isEmpty }

    public var description: String {
        passed ? "ok    \(name)" : "FAIL  \(name) (line \(mark.line)): " + differences.joined(separator: "; ")
    }
}
