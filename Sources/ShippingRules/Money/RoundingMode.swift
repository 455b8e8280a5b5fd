/// How an exact intermediate (a tax, a percentage) becomes a whole number of minor units.
/// The merchant picks the one its tax engine uses.
public enum RoundingMode: String, Sendable, CaseIterable {
    case halfUp = "half_up"
    case halfEven = "half_even"
    case halfDown = "half_down"
    /// Toward zero: the fraction is dropped (切り捨て, what most Japanese merchants use for tax).
    case down

    /// `numerator / denominator` rounded to an integer; `denominator` is positive.
    /// Halves are measured exactly on the remainder, so no float is involved.
    public func divide(_ numerator: Int128, by denominator: Int128) -> Int128 {
        precondition(denominator > 0, "rounding divides by a positive denominator")
        var quotient = numerator / denominator
        let remainder = numerator % denominator          // sign follows the numerator
        if remainder == 0 || self == .down { return quotient }
        let twice = remainder.magnitude * 2
        let away: Bool
        if twice > denominator.magnitude {
            away = true
        } else if twice < denominator.magnitude {
            away = false
        } else {
            switch self {
            case .halfUp: away = true
            case .halfDown: away = false
            case .halfEven: away = quotient % 2 != 0
            case .down: away = false
            }
        }
        if away { quotient += numerator < 0 ? -1 : 1 }
        return quotient
    }
}
