import Foundation

/// What `rules check` finds in a file or a directory of rules: every file is loaded on its own,
/// so one broken file does not hide another's error; then the files are checked as a library.
public struct RulesCheckReport: Sendable {
    public var ruleSets: [RuleSet] = []
    public var errors: [RulesError] = []
    public var warnings: [RulesWarning] = []
    /// Errors found beyond each file's `RulesError.reportLimit`, counted but not listed.
    public var omittedErrors = 0

    public var passed: Bool { errors.isEmpty }
}

public enum RulesCheck {
    public static func check(path: String) -> RulesCheckReport {
        var report = RulesCheckReport()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            report.errors.append(RulesError(kind: .unreadable, file: path, mark: nil, field: "", message: "no such file or directory"))
            return report
        }
        var files = [path]
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            files = names.filter { !$0.hasPrefix(".") && ($0.hasSuffix(".yaml") || $0.hasSuffix(".yml")) && !isCaseFile($0) }
                .sorted().map { (path as NSString).appendingPathComponent($0) }
            guard !files.isEmpty else {
                report.errors.append(RulesError(kind: .unreadable, file: path, mark: nil, field: "", message: "the directory holds no .yaml rules files"))
                return report
            }
        }
        for file in files {
            do {
                let set = try RuleSet.load(contentsOfFile: file)
                report.ruleSets.append(set)
                report.warnings.append(contentsOf: set.warnings)
            } catch {
                report.errors.append(contentsOf: error.errors)
                report.omittedErrors += error.omitted
            }
        }
        if report.errors.isEmpty {
            do { _ = try RuleLibrary(report.ruleSets) } catch { report.errors.append(error) }
        }
        return report
    }

    /// Case files sit next to the rules (`cases.yaml`, `us-acme.cases.yaml`) and are not rules.
    public static func isCaseFile(_ name: String) -> Bool {
        let base = (name as NSString).lastPathComponent
        return base == "cases.yaml" || base == "cases.yml" || base.hasSuffix(".cases.yaml") || base.hasSuffix(".cases.yml")
    }
}
