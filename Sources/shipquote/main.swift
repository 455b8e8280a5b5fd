import Foundation
import Kafka
import QuoteWorker

let usage = """
usage: shipquote <command> [flags]
       shipquote --version | --help

  run                       the production worker (--bootstrap-servers HOST:PORT --rules FILE|DIR [-X key=value ...])
  send                      produce one event and print its reply (--bootstrap-servers ... --event FILE)
  dlq replay                produce selected dead letters to the input topic again (--dry-run lists them)
  gateway                   the HTTP quote API for a merchant's backend (--bootstrap-servers ... --listen HOST:PORT)
  demo                      the whole path on an embedded broker: a scripted checkout, each event and its reply
  broker                    the embedded broker as a process; prints its bootstrap address first
  rules check FILE|DIR      validate rules files; errors name file, line, column and field
  rules explain FILE        the quote for one address and cart, with the trace of how each line came about
  rules test FILE CASES     run golden cases against a rule set
  bench [e2e]               end-to-end events/s and latency through Kafka, against an echo worker (--compare)
  bench stages              the worker's CPU per event without Kafka: scan, build, quote, encode
  bench sessions            memory per tracked session
  bench rules FILE          quotes per second for a rule set on one thread (--generated: 1,000 zones, 50 methods)
  bench takeover            how long a new owner of a partition takes before it answers
  bench gateway             HTTP through the HTTP gateway against the gateway library alone: added p50/p99
  bench replay              a takeover's read of a 100,000-event replay range
  healthcheck               ask a worker's /healthz (for container healthchecks; the image has no curl)

Run `shipquote <command> --help` for a command's flags.
Exit codes: 0 success, 1 runtime failure, 2 usage error, 78 configuration error.
"""

// The revision comes from the image (`BUILD_REVISION`, set from the Dockerfile's REVISION).
BuildInfo.current = BuildInfo(version: ShipQuoteVersion.version, revision: ProcessInfo.processInfo.environment["BUILD_REVISION"])
var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { Output.fail("no command given\n\n\(usage)") }
arguments.removeFirst()

do {
    switch command {
    case "demo": try DemoCommand.run(arguments)
    case "run": try RunCommand.run(arguments)
    case "broker": try BrokerCommand.run(arguments)
    case "send": try SendCommand.run(arguments)
    case "dlq": try DeadLetterCommand.run(arguments)
    case "gateway": try GatewayCommand.run(arguments)
    case "rules": try RulesCommand.run(arguments)
    case "bench": try BenchCommand.run(arguments)
    case "healthcheck": try HealthcheckCommand.run(arguments)
    case "help", "--help", "-h": Output.line(usage)
    case "version", "--version", "-V": Output.line(ShipQuoteVersion.text)
    default: Output.fail("unknown command \(command)\n\n\(usage)")
    }
} catch let error as Arguments.UsageError {
    Output.fail("\(error)")
} catch let error as KafkaError where error.name == "_INVALID_ARG" {
    Output.fail("invalid configuration: \(error)", exitCode: ExitCode.configuration)
} catch {
    Output.fail("\(error)", exitCode: ExitCode.failure)
}
