import Foundation
import ShippingRules

/// `shipquote bench rules`: one rule set quoting the same few requests over and over on one
/// thread, for quotes per second.
public struct RulesBench {
    /// Addresses for a rule set of one's own when none are given: a handful in several countries.
    public static let defaultAddresses = ["US/CA/95014/Cupertino", "US/NY/10001/New York", "US/AK/99501/Anchorage", "GB//SW1A/London",
                                          "DE/BY/80331/München", "JP/Tokyo/100-0001/Chiyoda", "KW/Al Asimah//Kuwait City", "CA/ON/M5V/Toronto"]
        .map(AddressShorthand.parse)

    let rules: RuleSet
    /// One request a given address, in the rules' first currency, with a 2-T-shirt cart and a promo.
    let requests: [QuoteRequest]

    public init(rules: RuleSet, addresses: [PartialAddress]) {
        self.rules = rules
        let currency = rules.currencies[0]
        let unit = Money(minorUnits: 2_500 * Int64(Self.pow10(currency.minorDigits)) / 100, currency: currency)
        let cart = Cart(items: [CartItem(id: "sku-1", label: "T-shirt", quantity: 2, unitAmount: unit, taxCategory: "apparel", weightGrams: 300)],
                        discounts: [Discount(id: "promo", label: "Promo", amount: Money(minorUnits: -unit.minorUnits / 5, currency: currency))])
        let now = Date(timeIntervalSince1970: 1_791_633_600)      // 2026-10-10T12:00:00Z: fixed, so runs compare
        requests = addresses.map { QuoteRequest(merchant: rules.merchant, currency: currency, address: $0, cart: cart, now: now) }
    }

    /// Each request quoted once, as the warm-up does.
    func outcomesOnce() -> QuoteOutcomeCount {
        var outcomes = QuoteOutcomeCount()
        for request in requests { outcomes.count(rules.quote(request)) }
        return outcomes
    }

    /// Quotes `quotes` times round the requests after a warm-up round; the report's lines.
    public func run(quotes: Int) -> [String] {
        _ = outcomesOnce()   // warm up
        var outcomes = QuoteOutcomeCount()
        let start = uptimeNanoseconds()
        let cpuStart = threadCPUNanoseconds()
        for i in 0..<quotes { outcomes.count(rules.quote(requests[i % requests.count])) }
        let seconds = Double(uptimeNanoseconds() - start) / 1e9
        let cpuSeconds = Double(threadCPUNanoseconds() - cpuStart) / 1e9
        return ["rules     \(rules.fileName)",
                "requests  \(requests.count) addresses; outcomes: \(outcomes.update) update, \(outcomes.keep) keep, "
                    + "\(outcomes.unserviceable) unserviceable, \(outcomes.rejected) rejected",
                "quotes    \(quotes) in \(String(format: "%.3f", seconds)) s on one thread",
                "rate      \(Int(Double(quotes) / seconds)) quotes/s",
                "cpu       \(String(format: "%.3f", cpuSeconds)) s of the thread's CPU: \(Int(Double(quotes) / max(cpuSeconds, 1e-9))) quotes per CPU second"]
    }

    /// The ZIP table `bench rules` adds by default: about as many rows as the US has ZIP codes.
    public static let defaultZipRows = 40_000

    /// `rules` with one more tax layer, `zip-table`, whose rate is the address's ZIP's in a generated
    /// `rows`-row table (Avalara's layout): what a merchant's ZIP table costs a quote.
    public static func addingZipTable(to rules: RuleSet, rows: Int) throws(RulesError) -> RuleSet {
        try rules.adding(zipRateLayer: "zip-table", csv: Array(ZipRateSample.csv(rows: rows).utf8), fileName: "generated-zip-rates-\(rows).csv")
    }

    private static func pow10(_ n: Int) -> Int { (0..<n).reduce(1) { acc, _ in acc * 10 } }
}
