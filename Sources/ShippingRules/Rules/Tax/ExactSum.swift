/// A sum of exact fractions `n / d` rounded once. Added tax always divides by one denominator;
/// tax contained in a price divides by `100 + the rates it contains`, which differs between
/// lines of different categories, so the sum keeps one numerator per denominator.
struct ExactSum: Sendable {
    private var denominator: Int128 = 0
    private var numerator: Int128 = 0
    /// Further denominators, rare (a cart mixing categories under inclusive tax).
    private var others: [(denominator: Int128, numerator: Int128)] = []

    mutating func add(_ n: Int128, over d: Int128) {
        if denominator == 0 || denominator == d {
            denominator = d
            numerator += n
        } else if let i = others.firstIndex(where: { $0.denominator == d }) {
            others[i].numerator += n
        } else {
            others.append((d, n))
        }
    }

    /// Whether nothing but zeros was added (an untaxed shipping charge of 0).
    var isZero: Bool { numerator == 0 && others.allSatisfy { $0.numerator == 0 } }

    mutating func add(_ other: ExactSum) {
        if other.denominator != 0 { add(other.numerator, over: other.denominator) }
        for part in other.others { add(part.numerator, over: part.denominator) }
    }

    /// Whole minor units, rounded once on the exact sum. Several denominators are brought to
    /// their least common multiple; only if that would overflow (never with real tax rates) are
    /// the fractions summed to 10^-18 of a minor unit instead.
    func rounded(_ mode: RoundingMode) -> Int128 {
        guard denominator != 0 else { return 0 }
        guard !others.isEmpty else { return mode.divide(numerator, by: denominator) }
        let parts = [(denominator, numerator)] + others.map { ($0.denominator, $0.numerator) }
        if let exact = Self.common(parts) { return mode.divide(exact.numerator, by: exact.denominator) }
        let scale: Int128 = 1_000_000_000_000_000_000
        var whole: Int128 = 0
        var fraction: Int128 = 0
        for (d, n) in parts {
            whole += n / d
            fraction += (n % d) * scale / d
        }
        return mode.divide(whole * scale + fraction, by: scale)
    }

    /// The sum as a whole part and a remainder over a denominator (for a sum of 0 or more), for
    /// splitting a rounded amount by largest remainders. On overflow of the common denominator the
    /// remainder is given in 10^-18 of a minor unit.
    func wholeAndRemainder() -> (whole: Int128, remainder: Int128, denominator: Int128) {
        guard denominator != 0 else { return (0, 0, 1) }
        let parts = [(denominator, numerator)] + others.map { ($0.denominator, $0.numerator) }
        if let exact = Self.common(parts) { return (exact.numerator / exact.denominator, exact.numerator % exact.denominator, exact.denominator) }
        let scale: Int128 = 1_000_000_000_000_000_000
        var whole: Int128 = 0
        var fraction: Int128 = 0
        for (d, n) in parts {
            whole += n / d
            fraction += (n % d) * scale / d
        }
        return (whole + fraction / scale, fraction % scale, scale)
    }

    /// The parts over one common denominator, or nil on overflow.
    private static func common(_ parts: [(Int128, Int128)]) -> (numerator: Int128, denominator: Int128)? {
        var d: Int128 = 1
        for (den, _) in parts {
            let (product, overflow) = (d / gcd(d, den)).multipliedReportingOverflow(by: den)
            guard !overflow else { return nil }
            d = product
        }
        var n: Int128 = 0
        for (den, num) in parts {
            let (scaled, o1) = num.multipliedReportingOverflow(by: d / den)
            guard !o1 else { return nil }
            let (sum, o2) = n.addingReportingOverflow(scaled)
            guard !o2 else { return nil }
            n = sum
        }
        return (n, d)
    }

    private static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        var (x, y) = (a.magnitude, b.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        return Int128(x)
    }
}
