import Foundation
import QuoteWorker

/// The flags of `shipquote run`: one per setting (`--rules`, `--metrics-listen` ...), `-X` for
/// librdkafka, and the switches that are actions rather than settings.
enum RunFlags {
    static let switches: Set<String> = ["--create-topics", "--print-config", "--exit-with-parent", "--help"]
    static let actionValues: Set<String> = ["--partitions", "--replication-factor"]
    static var valued: Set<String> { Set(Setting.all.map(\.flag)).union(actionValues).union(["-X"]) }

    /// The flags' share of the configuration, with the process environment beside it.
    static func sources(_ a: Arguments, environment: [String: String], settings list: [Setting] = Setting.all) -> ConfigurationSources {
        var flags: [String: String] = [:]
        for setting in list {
            if let value = a.value(setting.flag) { flags[setting.name] = value }
        }
        return ConfigurationSources(flags: flags, kafkaAssignments: a.all("-X"), environment: environment)
    }

    static var help: String {
        var lines = ["usage: shipquote run --bootstrap-servers HOST:PORT --rules FILE|DIR [flags]", ""]
        let row = settingRows(Setting.all, into: &lines)
        lines += [
            row("-X key=value", "a librdkafka property (repeatable): security.protocol, sasl.*, ssl.*, tuning"),
            row("--create-topics", "create missing topics first (--partitions N, default 8; --replication-factor N, default 3)"),
            row("--print-config", "print the effective configuration and where each value came from, secrets redacted, and exit"),
            row("--exit-with-parent", "stop as on SIGTERM when the process that started this one exits (exit 1 if not stopped"),
            row("", "within shutdown-grace + 5 s): for a parent that cannot be sure to stop its children"),
            "",
            "Every setting is also an environment variable (SHIPQUOTE_ and the name in capitals, dashes as",
            "underscores: SHIPQUOTE_METRICS_LISTEN) and a key of the --config file (metrics-listen=...).",
            "librdkafka properties: -X key=value, SHIPQUOTE_KAFKA_<KEY> (SHIPQUOTE_KAFKA_SASL_PASSWORD is",
            "sasl.password), kafka.<key>= in the config file, or the --kafka-properties file.",
            "Precedence: flags > environment > config file > defaults.",
        ]
        return lines.joined(separator: "\n")
    }

    /// Appends one help line per setting (flag, placeholder, help, default); returns the row
    /// formatter for the lines that follow, aligned with them.
    static func settingRows(_ list: [Setting], into lines: inout [String]) -> (String, String) -> String {
        let width = list.map { $0.flag.count + $0.placeholder.count + 1 }.max()! + 2
        let row = { (left: String, right: String) -> String in
            "  " + left + String(repeating: " ", count: max(1, width - left.count)) + right
        }
        for s in list {
            lines.append(row("\(s.flag) \(s.placeholder)", s.help + (s.defaultValue.map { " (default \($0))" } ?? "")))
        }
        return row
    }
}
