import Foundation
import ShippingRules

/// `shipquote rules …`: the merchant's tools.
enum RulesCommand {
    static let help = """
    usage: shipquote rules check FILE|DIR

      check   loads every rules file; prints each error with file, line, column and field, exits 1 on any
    """

    static func run(_ args: [String]) throws {
        guard let sub = args.first else { Output.fail(help) }
        let rest = Array(args.dropFirst())
        switch sub {
        case "check": check(rest)
        case "--help", "help": Output.line(help)
        default: Output.fail("rules: unknown subcommand \(sub)\n\n\(help)")
        }
    }

    static func check(_ args: [String]) {
        guard args.count == 1 else { Output.fail("rules check: expects one FILE or DIR\n\n\(help)") }
        do {
            let library = try RuleLibrary.load(path: args[0])
            for set in library.ruleSets {
                Output.line("ok  \(set.fileName)  merchant=\(set.merchant ?? "-")  payee=\(set.payee)  \(set.version)")
            }
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }
}
