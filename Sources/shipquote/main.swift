import Foundation

let usage = """
usage: shipquote <command> [flags]

  demo                      the whole path on an embedded broker: a scripted checkout, each event and its reply
  run                       the production worker (--bootstrap-servers HOST:PORT --rules FILE|DIR [-X key=value ...])
  broker                    the embedded broker as a process; prints its bootstrap address first
  send                      produce one event and print its reply (--bootstrap-servers ... --event FILE)
  rules check FILE|DIR      validate rules files; errors name file, line, column and field
  bench [e2e]               end-to-end events/s and latency through Kafka, against an echo worker (--compare)
  bench rules FILE          quotes per second for a rule set on one thread (--generated: 1,000 zones, 50 methods)

Run `shipquote <command> --help` for a command's flags.
"""

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { Output.line(usage); exit(2) }
arguments.removeFirst()

do {
    switch command {
    case "demo": try DemoCommand.run(arguments)
    case "run": try RunCommand.run(arguments)
    case "broker": try BrokerCommand.run(arguments)
    case "send": try SendCommand.run(arguments)
    case "rules": try RulesCommand.run(arguments)
    case "bench": try BenchCommand.run(arguments)
    case "healthcheck": try HealthcheckCommand.run(arguments)
    case "help", "--help", "-h": Output.line(usage)
    default: Output.fail("unknown command \(command)\n\n\(usage)")
    }
} catch {
    Output.fail("\(error)")
}
