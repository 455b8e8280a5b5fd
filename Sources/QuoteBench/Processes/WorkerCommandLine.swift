import Foundation
import Kafka
import QuoteContract

/// The command lines `bench --process` starts: the same topics, group, rules, batch size and
/// librdkafka properties the in-process workers of a phase get, as flags of `shipquote run` (or
/// of `shipquote bench echo-worker`).
public enum WorkerCommandLine {
    static func shipquote(kafka: KafkaConfiguration, topics: Topics, group: String, rules: String, maxBatch: Int) -> [String] {
        ["run", "--bootstrap-servers", kafka["bootstrap.servers"] ?? "", "--group", group, "--rules", rules,
         "--input-topic", topics.addressChanged, "--reply-topic", topics.quoteReplies,
         "--dlq-topic", topics.deadLetters, "--state-topic", topics.quoteState, "--max-batch", String(maxBatch),
         // Info: the group's assignments are logged there (a few lines a run; per-event lines are debug).
         // No statistics, as in-process; /metrics on a free port of 127.0.0.1 for the phase's counts.
         "--log-level", "info", "--statistics-interval", "0", "--metrics-listen", "127.0.0.1:0",
         // Should the bench die without stopping it (SIGKILL), the worker stops by itself.
         "--exit-with-parent"]
            + kafkaFlags(kafka)
    }

    static func echo(kafka: KafkaConfiguration, inputTopic: String, replyTopic: String, group: String, maxBatch: Int) -> [String] {
        ["bench", "echo-worker", "--bootstrap-servers", kafka["bootstrap.servers"] ?? "", "--group", group,
         "--input-topic", inputTopic, "--reply-topic", replyTopic, "--max-batch", String(maxBatch), "--exit-with-parent"]
            + kafkaFlags(kafka)
    }

    /// The worker started through `wrapper` (`--worker-wrapper`): the wrapper's program, then its
    /// arguments, the shipquote binary and the worker's own arguments.
    static func wrapped(_ wrapper: [String], executable: String, arguments: [String]) -> (executable: String, arguments: [String]) {
        guard let program = wrapper.first else { return (executable, arguments) }
        return (program, Array(wrapper.dropFirst()) + [executable] + arguments)
    }

    /// `program`'s absolute path: itself when it names a directory, else the first executable of
    /// that name in `path`'s directories (as a shell finds it); nil when there is none.
    public static func locate(_ program: String, path: String?) -> String? {
        if program.contains("/") {
            return FileManager.default.isExecutableFile(atPath: program) ? URL(fileURLWithPath: program).path : nil
        }
        for directory in (path ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// `-X key=value` for every property but `bootstrap.servers` and `group.id` (flags of their own), sorted.
    static func kafkaFlags(_ kafka: KafkaConfiguration) -> [String] {
        kafka.properties.filter { $0.key != "bootstrap.servers" && $0.key != "group.id" }
            .sorted { $0.key < $1.key }.flatMap { ["-X", "\($0.key)=\($0.value)"] }
    }
}
