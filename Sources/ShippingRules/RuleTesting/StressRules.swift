/// A generated rule set for the benchmark and the index tests: `zoneCount` zones spread over
/// 20 countries, 50 states each and postal prefixes, `methodCount` methods that each serve a
/// slice of them, a tax layer per country. Only a few zones hold any one address, which is what
/// the zone index must exploit.
public enum StressRules {
    static let countries = ["US", "CA", "GB", "DE", "FR", "IT", "ES", "NL", "BE", "AT",
                            "SE", "DK", "NO", "FI", "IE", "PT", "PL", "CZ", "JP", "AU"]

    public static func yaml(zoneCount: Int = 1_000, methodCount: Int = 50) -> String {
        var out = "version: 1\nmerchant: stress\npayee: Stress Test\ncurrencies: [USD]\n"
        out += "rounding: { mode: half_even, level: line }\n"
        out += "warehouse: { time_zone: America/New_York, cutoff: \"15:00\", holidays: [2026-12-25] }\n"
        out += "zones:\n"
        for i in 0..<zoneCount {
            let country = countries[i % countries.count]
            out += "  - { id: z\(i), country: \(country), state: S\((i / countries.count) % 50), postal_codes: [\"\(10 + i % 90)*\"] }\n"
        }
        out += "serviceability:\n  - when: { country_not_in: [\(countries.joined(separator: ", "))] }\n"
        out += "    error: { code: COUNTRY_NOT_SUPPORTED, message: \"Not here.\" }\n"
        out += "tax:\n  summary: combined\n  layers:\n"
        for (i, country) in countries.enumerated() {
            out += "    - { id: t-\(country.lowercased()), zone: { country: \(country) }, rate: \(5 + i % 10).\(i % 4)%, shipping: \(i % 2 == 0 ? "taxable" : "exempt") }\n"
        }
        out += "shipping_methods:\n"
        let perMethod = max(1, zoneCount / max(1, methodCount))
        for j in 0..<methodCount {
            let zones = (0..<perMethod).map { "z\((j * perMethod + $0) % zoneCount)" }.joined(separator: ", ")
            out += "  - id: m\(j)\n    label: Method \(j)\n    detail: \"Arrives in {min}-{max} business days\"\n    zones: [\(zones)]\n"
            out += "    price: { by: weight_grams, tiers: [{ up_to: 1000, amount: \(j % 9 + 1).50 }, { up_to: 5000, amount: \(j % 9 + 5).25 }], above: 20.00, free_over: 150.00 }\n"
            out += "    transit_days: { min: \(j % 3 + 1), max: \(j % 3 + 4) }\n"
        }
        return out
    }

    /// A rule set whose one zone lists `codeCount` postal codes, like a merchant's ZIP table: US
    /// 5-digit ZIPs up to 100,000 codes, 6-digit codes (country IN) beyond.
    public static func postalTable(codeCount: Int) -> String {
        let (country, width) = codeCount <= 100_000 ? ("US", 5) : ("IN", 6)
        var out = "version: 1\nmerchant: postal\npayee: Postal Test\ncurrencies: [USD]\nzones:\n  - id: table\n    country: \(country)\n    postal_codes:\n"
        out.reserveCapacity(codeCount * (width + 11) + 200)
        let first = width == 5 ? 0 : 100_000
        for i in 0..<codeCount {
            let digits = String(first + i)
            out += "      - \"" + String(repeating: "0", count: max(0, width - digits.count)) + digits + "\"\n"
        }
        out += "shipping_methods: [{ id: standard, label: Standard, zones: [table], price: 5.00 }]\n"
        return out
    }

    /// Addresses that fall in the generated zones (and a few that fall in none).
    public static func addresses(count: Int = 64) -> [PartialAddress] {
        (0..<count).map { k in
            let i = k * 37 % 1_000
            let postal = "\(10 + i % 90)\(100 + k)"
            return PartialAddress(city: "City \(k)", state: "S\((i / countries.count) % 50)", postalCode: postal,
                                  countryCode: countries[i % countries.count])
        } + [PartialAddress(countryCode: "BR"), PartialAddress(state: "S1", countryCode: "US")]
    }
}
