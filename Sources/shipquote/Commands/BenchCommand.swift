import Foundation
import ShippingRules

/// `shipquote bench [e2e]`: end to end through Kafka against an echo baseline (Bench/);
/// `bench rules FILE|--generated [--quotes N]`: quotes per second on one thread;
/// `bench sessions`: memory per tracked session; `bench stages`: the worker's CPU per event, stage by stage.
/// Measurements for people, not timed tests: build with `-c release` before reading a figure.
enum BenchCommand {
    static let help = """
    usage: shipquote bench [e2e] [flags]   end to end through Kafka; `shipquote bench --help` for its flags
           shipquote bench sessions [--count 1000000]
           shipquote bench stages [--rules FILE] [--events 200000]   decode, quote, encode: µs per event
           shipquote bench rules FILE [--quotes N] [--address C/S/P/CITY ...]
           shipquote bench rules --generated [--zones 1000] [--methods 50] [--quotes N]
           shipquote bench rules --load   load time of generated files: 40k and 400k postal codes, 30k zones

      Quotes one rule set on one thread and prints quotes per second. FILE is quoted for the
      given addresses (default: a handful in the rules' first currency's country mix); --generated
      builds a stress rule set of 1,000 zones and 50 methods and addresses that fall in it.
      Build with `swift build -c release` first: a debug build is many times slower.
    """

    static func run(_ args: [String]) throws {
        switch args.first {
        case "sessions": return try SessionMemoryBench.run(Array(args.dropFirst()))
        case "stages": return try StageBench.run(Array(args.dropFirst()))
        case "e2e": return try EndToEndBench.run(Array(args.dropFirst()))
        case "rules": break
        case let first? where !first.hasPrefix("-"): Output.fail("bench: unknown benchmark \(first)\n\n\(help)")
        default: return try EndToEndBench.run(args)
        }
        let flags = try Arguments(Array(args.dropFirst()), valued: ["--quotes", "--address", "--zones", "--methods"],
                                  flags: ["--generated", "--load", "--help"])
        if flags.has("--help") { Output.line(help); return }
        if flags.has("--load") { return try RulesLoadBench.run() }
        let quotes = try flags.int("--quotes") ?? 1_000_000
        guard quotes > 0 else { Output.fail("bench: --quotes must be positive") }

        let rules: RuleSet
        var addresses: [PartialAddress]
        if flags.has("--generated") {
            let zones = try flags.int("--zones") ?? 1_000
            let methods = try flags.int("--methods") ?? 50
            rules = try RuleSet.load(yaml: StressRules.yaml(zoneCount: zones, methodCount: methods), fileName: "generated(\(zones) zones, \(methods) methods)")
            addresses = StressRules.addresses()
        } else {
            guard flags.positional.count == 1 else { Output.fail("bench rules: expects one FILE or --generated\n\n\(help)") }
            rules = try RuleSet.load(contentsOfFile: flags.positional[0])
            addresses = ["US/CA/95014/Cupertino", "US/NY/10001/New York", "US/AK/99501/Anchorage", "GB//SW1A/London",
                         "DE/BY/80331/München", "JP/Tokyo/100-0001/Chiyoda", "KW/Al Asimah//Kuwait City", "CA/ON/M5V/Toronto"]
                .map(AddressShorthand.parse)
        }
        let given = flags.all("--address")
        if !given.isEmpty { addresses = given.map(AddressShorthand.parse) }

        let currency = rules.currencies[0]
        let unit = Money(minorUnits: 2_500 * Int64(pow10(currency.minorDigits)) / 100, currency: currency)
        let cart = Cart(items: [CartItem(id: "sku-1", label: "T-shirt", quantity: 2, unitAmount: unit, taxCategory: "apparel", weightGrams: 300)],
                        discounts: [Discount(id: "promo", label: "Promo", amount: Money(minorUnits: -unit.minorUnits / 5, currency: currency))])
        let now = Date(timeIntervalSince1970: 1_791_633_600)      // 2026-10-10T12:00:00Z: fixed, so runs compare
        let requests = addresses.map { QuoteRequest(merchant: rules.merchant, currency: currency, address: $0, cart: cart, now: now) }

        var outcomes = [0, 0, 0, 0]                                  // update, keep, unserviceable, rejected
        for request in requests { outcomes[index(rules.quote(request))] += 1 }   // warm up
        outcomes = [0, 0, 0, 0]
        let start = DispatchTime.now().uptimeNanoseconds
        for i in 0..<quotes { outcomes[index(rules.quote(requests[i % requests.count]))] += 1 }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        Output.line("rules     \(rules.fileName)")
        Output.line("requests  \(requests.count) addresses; outcomes: \(outcomes[0]) update, \(outcomes[1]) keep, \(outcomes[2]) unserviceable, \(outcomes[3]) rejected")
        Output.line("quotes    \(quotes) in \(String(format: "%.3f", seconds)) s on one thread")
        Output.line("rate      \(Int(Double(quotes) / seconds)) quotes/s")
    }

    private static func index(_ result: QuoteResult) -> Int {
        switch result {
        case .update: return 0
        case .keep: return 1
        case .unserviceable: return 2
        case .rejected: return 3
        }
    }

    private static func pow10(_ n: Int) -> Int { (0..<n).reduce(1) { acc, _ in acc * 10 } }
}
