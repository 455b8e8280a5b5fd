import Foundation
import Testing

/// Issue 15, CLI conventions: `--version`, `--help`/`-h` on every command (stdout, exit 0), usage on
/// stderr with exit 2 for no command or an unknown one, and a top-level help that lists every command.
@Suite struct ConventionsTests {
    @Test func versionNamesShipQuoteAndTheLinkedLibrdkafka() throws {
        for flag in ["--version", "-V", "version"] {
            let result = try Binary.run([flag], timeout: 30)
            #expect(result.status == 0, "\(flag): \(result.stderr)")
            #expect(result.stdout.hasPrefix("shipquote 0."), "\(flag): \(result.stdout)")
            #expect(result.stdout.contains("wire contract version 1"))
            #expect(result.stdout.contains("\nlibrdkafka 2."), "\(result.stdout)")
        }
    }

    @Test func noCommandPrintsTheUsageOnStderrAndExits2() throws {
        let result = try Binary.run([], timeout: 30)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("usage: shipquote <command>"))
    }

    @Test(arguments: ["frobnicate", "--frobnicate", "Run"])
    func anUnknownCommandPrintsTheUsageOnStderrAndExits2(command: String) throws {
        let result = try Binary.run([command], timeout: 30)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("unknown command \(command)"))
        #expect(result.stderr.contains("usage: shipquote <command>"))
    }

    static let commands = ["run", "send", "gateway", "demo", "broker", "rules check", "rules explain", "rules test", "bench [e2e]",
                           "bench stages", "bench sessions", "bench rules", "bench takeover", "bench gateway", "bench replay", "dlq replay", "healthcheck"]

    @Test(arguments: ["--help", "-h", "help"])
    func theTopLevelHelpListsEveryCommand(flag: String) throws {
        let result = try Binary.run([flag], timeout: 30)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let listed = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for command in Self.commands {
            #expect(listed.contains { $0.hasPrefix(command + " ") }, "\(command) is not listed:\n\(result.stdout)")
        }
    }

    static let subcommands: [[String]] = [
        ["run"], ["send"], ["gateway"], ["demo"], ["broker"], ["rules"], ["rules", "check"], ["rules", "explain"], ["rules", "test"],
        ["bench"], ["bench", "e2e"], ["bench", "stages"], ["bench", "sessions"], ["bench", "rules"],
        ["bench", "replay"], ["bench", "takeover"], ["bench", "gateway"], ["dlq", "replay"], ["healthcheck"],
    ]

    /// `rules check --help` used to check a file named `--help`; now every command prints its usage.
    @Test(arguments: subcommands, ["--help", "-h"])
    func everyCommandPrintsItsUsageOnStdoutForHelp(command: [String], flag: String) throws {
        let result = try Binary.run(command + [flag], timeout: 30)
        let name = (command + [flag]).joined(separator: " ")
        #expect(result.status == 0, "\(name): exit \(result.status), \(result.stderr)")
        #expect(result.stdout.hasPrefix("usage: shipquote \(command[0])"), "\(name): \(result.stdout)")
        #expect(result.stderr.isEmpty, "\(name): \(result.stderr)")
    }

    @Test(arguments: [["send", "--frobnicate"], ["broker", "--brokers"], ["rules"], ["rules", "check"], ["bench", "frobnicate"],
                      ["demo", "extra", "--log-level"], ["bench", "stages", "--stage", "turn"]])
    func aWrongCommandLineIsAUsageError(command: [String]) throws {
        let result = try Binary.run(command, timeout: 30)
        #expect(result.status == 2, "\(command): exit \(result.status), \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }
}
