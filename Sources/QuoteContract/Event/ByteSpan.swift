import ShippingRules

/// Where a value lies in the event's bytes: a `Range<Int>` in 8 bytes (an event is at most
/// 1 MiB), so that the scanner's records of positions, copied a few times per event, are half the size.
struct ByteSpan: Sendable, Equatable {
    private let start: UInt32
    private let end: UInt32

    init(_ range: Range<Int>) {
        // Positions in an event the scan read, which is at most `EventLimits.maxBytes` (1 MiB)
        // long: no check that each fits (two compares and branches per value of every event).
        start = UInt32(truncatingIfNeeded: range.lowerBound)
        end = UInt32(truncatingIfNeeded: range.upperBound)
    }

    var range: Range<Int> { Int(start)..<Int(end) }
    var isEmpty: Bool { start == end }
    var count: Int { Int(end - start) }
}

extension JSONTokenCursor {
    func slice(_ span: ByteSpan) -> UnsafeBufferPointer<UInt8> { slice(span.range) }
    func bytes(_ span: ByteSpan, equal literal: StaticString) -> Bool { bytes(span.range, equal: literal) }
    func bytes(_ span: ByteSpan, equal other: [UInt8]) -> Bool { bytes(span.range, equal: other) }
    func text(_ span: ByteSpan, plain: Bool) -> String? { text(span.range, plain: plain) }

    /// The same for a text that is nearly always one of `KnownTexts` (a code, a wallet's name).
    func knownText(_ span: ByteSpan, plain: Bool) -> String? {
        if plain, let known = KnownTexts.text(slice(span)) { return known }
        return text(span.range, plain: plain)
    }

    /// An optional text member as compact JSON writes it: where `key` (`,"merchant":`) comes
    /// next, its text into `span`, or nothing for `null` (absent, as the member walk reads it: a
    /// writer that spells out every absent member would otherwise send every event the general
    /// way, after reading it most of the way); false only where the key is there and its value is
    /// neither (the caller starts over the general way).
    @_transparent
    mutating func optionalText(after key: StaticString, into span: inout ByteSpan?) -> Bool {
        guard take(exactly: key) else { return true }   // left out
        if takeNull() { return true }
        guard let range = string() else { return false }
        span = ByteSpan(range)
        return true
    }

    /// Whether the bytes at `span` are `currency`'s code.
    func bytes(_ span: ByteSpan, equal currency: Currency) -> Bool {
        guard span.count == 3 else { return false }
        let (a, b, c) = currency.codeBytes
        let bytes = slice(span)
        return bytes[0] == a && bytes[1] == b && bytes[2] == c
    }
}
