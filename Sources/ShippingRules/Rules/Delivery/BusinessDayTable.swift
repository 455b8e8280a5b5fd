/// The business days of a span of days, numbered in order: "the first business day on or after
/// d" and "n business days after d" become array reads instead of a day-by-day walk that asks
/// the weekday and the holidays of every day it passes.
struct BusinessDayTable: Sendable {
    /// 2020-01-01 through 2039-12-31, fixed so that no clock is read at load: about 30 KB of
    /// ranks and 40 KB of days a rule set. Days outside it are the caller's to step.
    static let span = 18_262...25_566

    private let first: Int
    /// `rank[d - first]`: how many business days of the span come before day d.
    private let rank: [Int32]
    /// The span's business days, ascending.
    private let days: [Int]

    init(from first: Int, through last: Int, isBusinessDay: (Int) -> Bool) {
        self.first = first
        var rank: [Int32] = []
        var days: [Int] = []
        rank.reserveCapacity(max(0, last - first + 1))
        if first <= last {
            for day in first...last {
                rank.append(Int32(days.count))
                if isBusinessDay(day) { days.append(day) }
            }
        }
        // The day-by-day walk gives up after 366 days without a business day (a configuration
        // error); a table with such a gap answers nothing, so both ways always agree.
        var widest = days.first.map { $0 - first } ?? .max
        for (a, b) in zip(days, days.dropFirst()) { widest = max(widest, b - a) }
        self.rank = widest <= 366 ? rank : []
        self.days = widest <= 366 ? days : []
    }

    /// The first business day on or after `day`, or nil when the span cannot tell.
    func businessDay(onOrAfter day: Int) -> Int? {
        let offset = day - first
        guard offset >= 0, offset < rank.count else { return nil }
        let k = Int(rank[offset])
        return k < days.count ? days[k] : nil
    }

    /// The day reached by stepping `count` times to the next business day after the current one,
    /// from `day`; nil when the span cannot tell.
    func adding(businessDays count: Int, to day: Int) -> Int? {
        guard count > 0 else { return count == 0 ? day : nil }
        let offset = day + 1 - first
        guard offset >= 0, offset < rank.count else { return nil }
        let k = Int(rank[offset]) + count - 1
        return k < days.count ? days[k] : nil
    }
}
