import Foundation

/// The process's exit codes (README, "Exit codes").
enum ExitCode {
    /// A runtime failure: a broker that cannot be reached, a worker that stopped by itself, no reply in time.
    static let failure: Int32 = 1
    /// The command line is wrong: no command, an unknown command or flag, a missing or malformed argument.
    static let usage: Int32 = 2
    /// EX_CONFIG: a configuration the command cannot run with (a setting, a librdkafka property, rules
    /// that do not load, a listen address).
    static let configuration: Int32 = 78
}

/// Console output for people (the demo, `send`, `rules`), apart from the structured logs on stderr.
enum Output {
    static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// `shipquote: text` on stderr, then exit (a usage error unless said otherwise).
    static func fail(_ text: String, exitCode: Int32 = ExitCode.usage) -> Never {
        FileHandle.standardError.write(Data(("shipquote: " + text + "\n").utf8))
        exit(exitCode)
    }

    /// Whether the arguments ask for help (`--help` or `-h` anywhere).
    static func wantsHelp(_ args: [String]) -> Bool { args.contains("--help") || args.contains("-h") }

    /// Prints a command's help on stdout and exits 0.
    static func help(_ text: String) -> Never {
        line(text)
        exit(0)
    }
}
