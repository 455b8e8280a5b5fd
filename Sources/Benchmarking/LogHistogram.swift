/// Latencies counted in logarithmic buckets: `bucketsPerDecade` equal steps of log10 between
/// `lowest` and `highest` seconds, so 50 µs and 5 s are both drawn with useful detail.
/// Samples below `lowest` count in the first bucket, above `highest` in the last.
public struct LogHistogram: Sendable, Equatable {
    public let lowest: Double
    public let highest: Double
    public let bucketsPerDecade: Int
    public private(set) var counts: [Int]

    public init(lowest: Double = 1e-5, highest: Double = 100, bucketsPerDecade: Int = 10) {
        precondition(lowest > 0 && highest > lowest && bucketsPerDecade > 0)
        self.lowest = lowest
        self.highest = highest
        self.bucketsPerDecade = bucketsPerDecade
        let decades = (highest / lowest).log10
        counts = Array(repeating: 0, count: Swift.max(1, Int((decades * Double(bucketsPerDecade)).rounded(.up))))
    }

    public init(samples: [Double], lowest: Double = 1e-5, highest: Double = 100, bucketsPerDecade: Int = 10) {
        self.init(lowest: lowest, highest: highest, bucketsPerDecade: bucketsPerDecade)
        for s in samples { record(s) }
    }

    public mutating func record(_ seconds: Double) {
        counts[bucket(of: seconds)] += 1
    }

    public func bucket(of seconds: Double) -> Int {
        guard seconds > lowest else { return 0 }
        let i = Int(((seconds / lowest).log10 * Double(bucketsPerDecade)).rounded(.down))
        return Swift.min(i, counts.count - 1)
    }

    /// The lower and upper edge of bucket `i`, in seconds.
    public func bounds(of i: Int) -> (lower: Double, upper: Double) {
        (edge(i), edge(i + 1))
    }

    func edge(_ i: Int) -> Double { lowest * (10.0).power(Double(i) / Double(bucketsPerDecade)) }

    public var total: Int { counts.reduce(0, +) }

    /// The first and last bucket that hold anything (nil when empty).
    public var occupied: ClosedRange<Int>? {
        guard let first = counts.firstIndex(where: { $0 > 0 }), let last = counts.lastIndex(where: { $0 > 0 }) else { return nil }
        return first...last
    }
}

// Foundation-free logarithms keep this target pure Swift.
extension Double {
    var log10: Double { _log10(self) }
    func power(_ y: Double) -> Double { _pow(self, y) }
}

#if canImport(Glibc)
import Glibc
private func _log10(_ x: Double) -> Double { Glibc.log10(x) }
private func _pow(_ x: Double, _ y: Double) -> Double { Glibc.pow(x, y) }
#elseif canImport(Darwin)
import Darwin
private func _log10(_ x: Double) -> Double { Darwin.log10(x) }
private func _pow(_ x: Double, _ y: Double) -> Double { Darwin.pow(x, y) }
#endif
