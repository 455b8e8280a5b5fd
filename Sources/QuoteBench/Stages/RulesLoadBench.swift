import Foundation
import ShippingRules

/// `shipquote bench rules --load`: how long generated rules files of the sizes merchants send take
/// to load (read, check and compile; what a worker's reload costs), so that loading stays linear.
public enum RulesLoadBench {
    /// One line a file, best of three loads.
    public static func run(line: (String) -> Void) throws {
        let files: [(name: String, yaml: String)] = [
            ("40,000 postal codes in one zone", StressRules.postalTable(codeCount: 40_000)),
            ("400,000 postal codes in one zone", StressRules.postalTable(codeCount: 400_000)),
            ("30,000 zones, 50 methods", StressRules.yaml(zoneCount: 30_000, methodCount: 50)),
        ]
        for file in files {
            var best = Double.infinity
            for _ in 0..<3 {
                let start = uptimeNanoseconds()
                _ = try RuleSet.load(yaml: file.yaml, fileName: file.name)
                best = min(best, Double(uptimeNanoseconds() - start) / 1e9)
            }
            let megabytes = Double(file.yaml.utf8.count) / 1_048_576
            line("load  " + file.name.padding(toLength: 34, withPad: " ", startingAt: 0)
                 + String(format: "%6.2f MiB  %7.3f s (best of 3)", megabytes, best))
        }
    }
}
