/// Splits one rounded tax amount across the layers that make it up, so that the layers shown add
/// up to it exactly: each layer gets its exact share rounded down, and the minor units left over go
/// one each to the layers with the largest remainders (the earlier layer on a tie). Rounding each
/// layer on its own instead overcharges: 7.25 % and 1.5 % of $3.00 round to 0.22 + 0.05, where the
/// combined 8.75 % is 0.2625, 0.26.
enum LayerSplit {
    static func split(_ total: Int128, exact shares: [ExactSum]) -> [Int128] {
        let parts = shares.map { $0.wholeAndRemainder() }
        var result = parts.map(\.whole)
        var left = total - result.reduce(0, +)
        // Largest remainder first; remainders over different denominators compared exactly.
        let order = parts.indices.sorted { a, b in
            let x = parts[a].remainder.multipliedFullWidth(by: parts[b].denominator)
            let y = parts[b].remainder.multipliedFullWidth(by: parts[a].denominator)
            return (x.high, x.low) != (y.high, y.low) ? (x.high, x.low) > (y.high, y.low) : a < b
        }
        var i = 0
        while left > 0 && !order.isEmpty {
            result[order[i % order.count]] += 1
            left -= 1
            i += 1
        }
        // A total below the shares' whole parts (never with half-way rounding) takes from the smallest remainders.
        i = order.count - 1
        while left < 0 && !order.isEmpty {
            let j = order[(i % order.count + order.count) % order.count]
            if result[j] > 0 { result[j] -= 1; left += 1 }
            i -= 1
            if i < -order.count * 4 { break }
        }
        return result
    }
}
