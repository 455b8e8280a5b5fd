import Foundation

/// A time zone's UTC offsets as a table of its transitions, made once when the rules load, so
/// that quoting reads the warehouse's offset with a binary search instead of asking ICU through
/// `TimeZone` on every quote. Immutable, so a rule set shares it between threads freely, and a
/// reload builds a new one with the new rules. Instants outside the table ask the `TimeZone`.
struct ZoneOffsets: Sendable {
    let timeZone: TimeZone
    /// The table covers whole seconds since 1970 in `first..<last`.
    let first: Int64
    let last: Int64
    /// Instants (whole seconds since 1970, ascending) at which the offset changes, inside the table.
    private let transitions: [Int64]
    /// `offsets[k]` holds from `transitions[k - 1]` (or `first`) until `transitions[k]` (or `last`).
    private let offsets: [Int]
    /// For each block of 2^22 seconds (48½ days) from `first`, how many transitions come before
    /// the block: a lookup starts there and steps over the block's own (one at most, nearly
    /// always). A binary search over a century's transitions was some eight steps a quote.
    private let transitionsBefore: [Int32]
    private static let blockShift: Int64 = 22

    /// 2000-01-01 to 2100-01-01 UTC: every `occurred_at` a live checkout sends.
    static let defaultRange: Range<Int64> = 946_684_800..<4_102_444_800

    init(_ timeZone: TimeZone, covering range: Range<Int64> = ZoneOffsets.defaultRange) {
        self.timeZone = timeZone
        first = range.lowerBound
        last = range.upperBound
        var transitions: [Int64] = []
        var offsets = [timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(range.lowerBound)))]
        var cursor = Date(timeIntervalSince1970: Double(range.lowerBound))
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor) {
            let second = Int64(next.timeIntervalSince1970.rounded(.down))
            let previous = transitions.last ?? range.lowerBound
            guard second < range.upperBound && second > previous else { break }
            transitions.append(second)
            offsets.append(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(second))))
            cursor = next
        }
        self.transitions = transitions
        self.offsets = offsets
        var before: [Int32] = []
        var k = 0
        for block in 0...((range.upperBound - range.lowerBound) >> Self.blockShift) {
            let start = range.lowerBound + block << Self.blockShift
            while k < transitions.count && transitions[k] < start { k += 1 }
            before.append(Int32(k))
        }
        transitionsBefore = before
    }

    /// The offset from UTC, in seconds, at `now`: what `timeZone.secondsFromGMT(for: now)` answers.
    func secondsFromGMT(for now: Date) -> Int {
        // Transitions fall on whole seconds, so the second `now` lies in decides.
        let interval = now.timeIntervalSince1970.rounded(.down)
        guard interval >= Double(first) && interval < Double(last) else { return timeZone.secondsFromGMT(for: now) }
        let second = Int64(interval)
        // The number of transitions at or before `second` indexes its offset.
        var k = Int(transitionsBefore[Int((second - first) >> Self.blockShift)])
        while k < transitions.count && transitions[k] <= second { k += 1 }
        return offsets[k]
    }
}
