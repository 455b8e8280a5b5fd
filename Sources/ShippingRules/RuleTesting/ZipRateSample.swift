/// A generated ZIP rate table in Avalara's layout, for the benchmark and the lookup tests: `rows`
/// ZIP codes spread over 00501…99950 (the real table has about 41,000), each with a combined rate
/// from 6.00 % to 10.49 %. The ZIPs of the bench's default addresses are always in it.
public enum ZipRateSample {
    public static let header = "State,ZipCode,TaxRegionName,EstimatedCombinedRate,StateRate,EstimatedCountyRate,EstimatedCityRate,EstimatedSpecialRate,RiskLevel"
    static let kept = [95014, 10001, 99501]

    /// The ZIPs in file order.
    public static func zips(rows: Int) -> [Int] {
        precondition((kept.count...99_000).contains(rows), "between 3 and 99,000 rows")
        var zips = (0..<rows - kept.count).map { 501 + $0 * (99_950 - 501) / (rows - kept.count) }
        zips.removeAll { kept.contains($0) }
        // Spread codes that land on a kept one are replaced by neighbours not taken.
        var taken = Set(zips + kept)
        var next = 502
        while zips.count < rows - kept.count {
            while taken.contains(next) { next += 1 }
            zips.append(next)
            taken.insert(next)
        }
        return (zips + kept).sorted()
    }

    /// The combined rate of the k-th row in hundredths of a percent (600 is 6.00 %).
    public static func basisPoints(row k: Int) -> Int { 600 + (k * 7_919) % 450 }

    /// The combined rate of the k-th row as the CSV writes it: a fraction with 4 decimals.
    public static func rate(row k: Int) -> String {
        let basis = basisPoints(row: k)
        return "0.\(String(repeating: "0", count: 4 - String(basis).count))\(basis)"
    }

    public static func csv(rows: Int) -> String {
        let states = ["MA", "NY", "VA", "GA", "OH", "IL", "MO", "TX", "CO", "CA"]
        var out = header + "\n"
        out.reserveCapacity(rows * 64)
        for (k, zip) in zips(rows: rows).enumerated() {
            let code = String(repeating: "0", count: 5 - String(zip).count) + String(zip)
            out += "\(states[zip / 10_000]),\(code),REGION \(k % 97),\(rate(row: k)),0.0600,0.0025,0.0000,0.0000,\(k % 3 + 1)\n"
        }
        return out
    }
}
