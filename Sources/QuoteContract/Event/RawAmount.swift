import ShippingRules

/// `{ "currency": …, "value": … }`: where each one's bytes are.
struct RawAmount: Sendable {
    var currency: ByteSpan?
    var literal: ByteSpan?
    /// The literal's value, where the scan valued it as it stepped over it (see `compactAmount`).
    var decimal: PlainDecimal?

    private static let keys = MemberNames(["currency", "value"])

    init?(_ c: inout JSONTokenCursor) {
        if let (code, value, decimal) = c.compactAmount() {
            (currency, literal, self.decimal) = (ByteSpan(code), ByteSpan(value), decimal)
            return
        }
        guard let (code, value) = RawAmount.members(&c) else { return nil }
        (currency, literal) = (code, value)
    }

    /// An amount in any other shape, member by member. Out of line: inlined, the walk made
    /// `init` too large for `compactAmount()`, the usual case, to be inlined there.
    @inline(never)
    private static func members(_ c: inout JSONTokenCursor) -> (ByteSpan?, ByteSpan?)? {
        var currency: ByteSpan?, literal: ByteSpan?
        guard c.take(UInt8(ascii: "{")) else { return nil }
        var walk = MemberWalk()
        let names = RawAmount.keys   // once: a static read in the loop is a lazy-initialization check a member
        members: while true {
            let index = c.member(of: names, &walk)
            if index == MemberWalk.end { break members }
            guard index >= 0 else { return nil }
            if index == 0 {
                guard let range = c.string() else { return nil }
                currency = ByteSpan(range)
            } else if c.atString() {
                guard let range = c.string() else { return nil }
                literal = ByteSpan(range)
            } else {
                guard let number = c.number() else { return nil }
                literal = ByteSpan(number)
            }
        }
        return (currency, literal)
    }

    func money(_ c: JSONTokenCursor, currency expected: Currency) -> Money? {
        guard let currency, let literal, c.bytes(currency, equal: expected) else { return nil }
        // What `AmountField.money` makes of the literal, where the scan valued it already.
        if let minor = decimal?.minorUnits(minorDigits: expected.minorDigits) { return Money(minorUnits: minor, currency: expected) }
        return try? AmountField.money(utf8: c.slice(literal), currency: expected, form: .numberOrDecimalString)
    }
}
