import Testing
@testable import ShippingRules

/// The set of matched zone (or method) numbers, in one word up to 64 and in words beyond.
@Suite("Zone number sets")
struct ZoneSetTests {
    @Test(arguments: [0, 1, 64, 65, 130, 1000])
    func holdsWhatWasInsertedListedAscendingOnce(capacity: Int) {
        var set = ZoneSet(capacity: capacity)
        let inserted = [0, 63, 5, 63, 1, 64, 129, 999].filter { $0 < max(capacity, 1) }
        for n in inserted { set.insert(n) }
        let expected = Array(Set(inserted)).sorted()
        #expect(set.members == expected)
        var visited: [Int] = []
        set.forEachMember { visited.append($0) }
        #expect(visited == expected)
        for n in -1...1001 { #expect(set.contains(n) == expected.contains(n), "\(n) in a set of capacity \(capacity)") }
    }

    @Test func anEmptySetHoldsNothing() {
        let set = ZoneSet(capacity: 0)
        #expect(set.members == [])
        #expect(!set.contains(0) && !set.contains(-5) && !set.contains(64) && !set.contains(10_000))
    }
}
