/// Days carriers do not deliver to the addresses of a zone (a state's or a nation's own public
/// holidays, Hawaii's Kamehameha Day): transit days to those addresses skip them as well as the
/// warehouse's closed days. The ship date stays on the warehouse's calendar.
struct DestinationCalendar: Sendable {
    var zone: Zone
    /// Days since 1970-01-01, ascending and unique.
    var holidays: [Int]
    /// Where it is written, for the trace.
    var field = ""

    /// The union of several calendars' days, ascending and unique.
    static func merged(_ lists: [[Int]]) -> [Int] {
        lists.count == 1 ? lists[0] : Array(Set(lists.joined())).sorted()
    }
}
