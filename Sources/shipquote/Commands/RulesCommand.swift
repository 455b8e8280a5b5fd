import Foundation
import QuoteContract
import ShippingRules

/// `shipquote rules …`: the merchant's tools. The work is in ShippingRules (RulesCheck,
/// ExplainReport, RuleCaseFile); this file reads flags and files and prints.
enum RulesCommand {
    static let help = """
    usage: shipquote rules check FILE|DIR
           shipquote rules explain FILE --address US/CA/95014/Cupertino --cart cart.json [flags]
           shipquote rules test FILE CASES.yaml

      check    loads every rules file; prints each error with file, line, column and field (exit 1),
               then warnings (overlapping methods and tax layers, unreachable rules, postal rules that
               shortened UK/Canadian postcodes never meet, street-level rules); warnings alone exit 0
      explain  the quote for one address and cart, with the trace of which zone, rule, tier, tax layer
               and rounding produced each line. Same input, same bytes.
                 --address C/S/P/CITY      country/state/postal code/city; empty parts are missing
                 --cart FILE               the contract event's `cart` object as JSON (or a whole event)
                 --now RFC3339             the quote's time; DEFAULTS TO THE CURRENT TIME (give it for
                                           reproducible output)
                 --trigger address_changed|sheet_opened|payment_authorized   (default address_changed;
                                           payment_authorized: the final check of --method)
                 --method ID               the selected shipping method
                 --payment-method-type T   (default APPLE_PAY)
                 --currency CODE           (default the rules' first currency)
      test     runs golden cases (see examples/rules/README.md); one line per failing case, then
               `N passed, M failed`; exit 1 when any case fails
    """

    static func run(_ args: [String]) throws {
        guard let sub = args.first else { Output.fail("rules: no subcommand given\n\n\(help)") }
        let rest = Array(args.dropFirst())
        // `rules check --help` prints this help; it never checks a file named --help.
        if Output.wantsHelp(args) { Output.help(help) }
        switch sub {
        case "check": check(rest)
        case "explain": try explain(rest)
        case "test": test(rest)
        case "help": Output.line(help)
        default: Output.fail("rules: unknown subcommand \(sub)\n\n\(help)")
        }
    }

    // MARK: check

    static func check(_ args: [String]) {
        guard args.count == 1 else { Output.fail("rules check: expects one FILE or DIR\n\n\(help)") }
        let report = RulesCheck.check(path: args[0])
        for error in report.errors { printError("\(error)") }
        if report.omittedErrors > 0 { printError("and \(report.omittedErrors) more errors (only the first \(RulesError.reportLimit) of a file are listed)") }
        for warning in report.warnings { printError("\(warning)") }
        if report.passed {
            for set in report.ruleSets {
                Output.line("ok  \(set.fileName)  merchant=\(set.merchant ?? "-")  payee=\(set.payee)  \(set.version)")
            }
        }
        let errors = report.errors.count + report.omittedErrors
        Output.line("\(errors) error\(errors == 1 ? "" : "s"), "
                    + "\(report.warnings.count) warning\(report.warnings.count == 1 ? "" : "s")")
        exit(report.passed ? 0 : 1)
    }

    // MARK: explain

    static func explain(_ args: [String]) throws {
        let flags = try Arguments(args, valued: ["--address", "--cart", "--now", "--trigger", "--method",
                                                 "--payment-method-type", "--currency"])
        guard flags.positional.count == 1 else { Output.fail("rules explain: expects one rules FILE\n\n\(help)") }
        let rules = loadRules(flags.positional[0])
        guard let addressText = flags.value("--address") else { Output.fail("rules explain: --address is required, like US/CA/95014/Cupertino") }

        var currency = rules.currencies[0]
        if let code = flags.value("--currency") {
            guard let c = Currency(code: code) else { Output.fail("rules explain: --currency \(code) is not an ISO 4217 code") }
            currency = c
        }
        var now = Date()
        if let text = flags.value("--now") {
            guard let date = RFC3339.parse(text) else { Output.fail("rules explain: --now expects an RFC 3339 time like 2026-10-10T12:00:00Z, got \(text)") }
            now = date
        }
        var trigger = QuoteTrigger.addressChanged
        if let text = flags.value("--trigger") {
            guard let t = QuoteTrigger(rawValue: text) else { Output.fail("rules explain: --trigger expects address_changed, sheet_opened or payment_authorized, got \(text)") }
            trigger = t
        }
        let cart = try flags.value("--cart").map { try CartFile.read($0, currency: currency) } ?? Cart()
        let request = QuoteRequest(merchant: rules.merchant, paymentMethodType: flags.value("--payment-method-type") ?? "APPLE_PAY",
                                   trigger: trigger, currency: currency, address: AddressShorthand.parse(addressText), cart: cart,
                                   selectedShippingMethodID: flags.value("--method"), now: now)
        FileHandle.standardOutput.write(Data(ExplainReport.text(rules: rules, request: request).utf8))
    }

    // MARK: test

    static func test(_ args: [String]) {
        guard args.count == 2 else { Output.fail("rules test: expects a rules FILE and a CASES.yaml\n\n\(help)") }
        let rules = loadRules(args[0])
        let cases: RuleCaseFile
        do { cases = try RuleCaseFile.load(contentsOfFile: args[1]) } catch {
            printError("\(error)")
            exit(2)
        }
        let results = cases.run(against: rules)
        for result in results where !result.passed {
            Output.line("\(cases.fileName):\(result.mark.line): FAIL \(result.name): \(result.differences.joined(separator: "; "))")
        }
        let failed = results.filter { !$0.passed }.count
        Output.line("\(results.count - failed) passed, \(failed) failed")
        exit(failed == 0 ? 0 : 1)
    }

    /// Errors and warnings go to stderr, apart from the results on stdout.
    private static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    private static func loadRules(_ path: String) -> RuleSet {
        do { return try RuleSet.load(contentsOfFile: path) } catch {
            printError("\(error)")
            exit(ExitCode.configuration)
        }
    }
}

/// Reads `--cart`: the `cart` object of the contract's event (docs/contract.md), decoded by the contract's own codec
/// (so amounts follow the same rules: exact, in the session currency), or a whole event.
enum CartFile {
    struct CartFileError: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ path: String, currency: Currency) throws -> Cart {
        guard let data = FileManager.default.contents(atPath: path) else { throw CartFileError(description: "--cart \(path): cannot read the file") }
        let value: JSONValue
        do { value = try JSONReader().read([UInt8](data)) } catch { throw CartFileError(description: "--cart \(path): not JSON: \(error)") }
        guard case .object(let object) = value else { throw CartFileError(description: "--cart \(path): expected a JSON object like {\"items\": [...]}") }
        let cart = object["session_id"] != nil ? (object["cart"] ?? .object(JSONObject())) : value
        // Wrapped in a minimal event so that the contract's decoder reads the cart exactly as the worker does.
        let event = JSONObject([
            "version": .integer(1), "session_id": .string("rules-explain"), "sequence": .integer(1),
            "payment_method_type": .string("APPLE_PAY"), "trigger": .string("address_changed"),
            "currency": .string(currency.code), "shipping_address": .object(JSONObject()), "cart": cart,
            "occurred_at": .string("1970-01-01T00:00:00Z"),
        ])
        switch AddressChangeEvent.decode(unkeyed: JSONWriter.encode(.object(event))) {
        case .success(let decoded): return decoded.cart
        case .failure(let rejection):
            throw CartFileError(description: "--cart \(path): \(rejection.field.map { "\($0): " } ?? "")\(rejection.message)")
        }
    }
}
