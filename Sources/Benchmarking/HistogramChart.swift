/// An SVG picture of one or more latency histograms on a shared logarithmic time axis, each
/// drawn as the share of its replies per bucket (so runs of different sizes compare), with its
/// p50 and p99 marked. Plain SVG 1.1, no scripts or fonts beyond sans-serif: opens anywhere.
public struct HistogramChart: Sendable {
    public struct Series: Sendable {
        public let name: String
        public let histogram: LogHistogram
        public let summary: LatencySummary
        public init(name: String, histogram: LogHistogram, summary: LatencySummary) {
            self.name = name
            self.histogram = histogram
            self.summary = summary
        }
    }

    public let title: String
    public let series: [Series]
    public var width = 960.0
    public var height = 480.0

    public init(title: String, series: [Series]) {
        self.title = title
        self.series = series
    }

    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"]
    private let left = 70.0, right = 20.0, top = 50.0, bottom = 60.0

    public func svg() -> String {
        let plotW = width - left - right, plotH = height - top - bottom
        // The time axis spans whole decades around every occupied bucket.
        let occupied = series.compactMap { s in s.histogram.occupied.map { r in (s.histogram, r) } }
        var lo = 1e-3, hi = 1.0
        if let first = occupied.first {
            lo = occupied.map { $0.0.bounds(of: $0.1.lowerBound).lower }.min() ?? first.0.lowest
            hi = occupied.map { $0.0.bounds(of: $0.1.upperBound).upper }.max() ?? first.0.highest
        }
        let loDecade = (lo.log10 + 1e-9).rounded(.down), hiDecade = Swift.max((hi.log10 - 1e-9).rounded(.up), loDecade + 1)
        func x(_ seconds: Double) -> Double {
            let v = (Swift.max(seconds, 1e-12).log10 - loDecade) / (hiDecade - loDecade)
            return left + Swift.min(Swift.max(v, 0), 1) * plotW
        }
        let shares = series.map { s in s.histogram.counts.map { s.histogram.total == 0 ? 0 : Double($0) / Double(s.histogram.total) } }
        let peak = Swift.max(shares.flatMap { $0 }.max() ?? 0, 0.01)
        let yMax = Self.niceCeiling(peak)
        func y(_ share: Double) -> Double { top + plotH - share / yMax * plotH }

        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(fmt(width))" height="\(fmt(height))" viewBox="0 0 \(fmt(width)) \(fmt(height))" font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(fmt(width / 2))" y="24" text-anchor="middle" font-size="16" font-weight="bold">\(escape(title))</text>

        """
        // Grid and axes.
        var decade = loDecade
        while decade <= hiDecade + 1e-9 {
            let px = x((10.0).power(decade))
            out += "<line x1=\"\(fmt(px))\" y1=\"\(fmt(top))\" x2=\"\(fmt(px))\" y2=\"\(fmt(top + plotH))\" stroke=\"#ddd\"/>\n"
            out += "<text x=\"\(fmt(px))\" y=\"\(fmt(top + plotH + 18))\" text-anchor=\"middle\">\(Self.duration((10.0).power(decade)))</text>\n"
            decade += 1
        }
        for step in 0...4 {
            let share = yMax * Double(step) / 4
            out += "<line x1=\"\(fmt(left))\" y1=\"\(fmt(y(share)))\" x2=\"\(fmt(left + plotW))\" y2=\"\(fmt(y(share)))\" stroke=\"#eee\"/>\n"
            out += "<text x=\"\(fmt(left - 6))\" y=\"\(fmt(y(share) + 4))\" text-anchor=\"end\">\(Self.percent(share))</text>\n"
        }
        out += "<rect x=\"\(fmt(left))\" y=\"\(fmt(top))\" width=\"\(fmt(plotW))\" height=\"\(fmt(plotH))\" fill=\"none\" stroke=\"#333\"/>\n"
        out += "<text x=\"\(fmt(left + plotW / 2))\" y=\"\(fmt(height - 16))\" text-anchor=\"middle\">end-to-end latency (log scale): event produced → reply received</text>\n"
        out += "<text transform=\"translate(18 \(fmt(top + plotH / 2))) rotate(-90)\" text-anchor=\"middle\">share of replies per bucket</text>\n"

        // Each series as a filled step outline, then its p50 and p99 markers.
        for (n, s) in series.enumerated() {
            let color = Self.palette[n % Self.palette.count]
            var points: [String] = []
            if let range = s.histogram.occupied {
                points.append("\(fmt(x(s.histogram.bounds(of: range.lowerBound).lower))),\(fmt(y(0)))")
                for i in range {
                    let (l, u) = s.histogram.bounds(of: i)
                    points.append("\(fmt(x(l))),\(fmt(y(shares[n][i])))")
                    points.append("\(fmt(x(u))),\(fmt(y(shares[n][i])))")
                }
                points.append("\(fmt(x(s.histogram.bounds(of: range.upperBound).upper))),\(fmt(y(0)))")
            }
            out += "<polygon points=\"\(points.joined(separator: " "))\" fill=\"\(color)\" fill-opacity=\"0.25\" stroke=\"\(color)\" stroke-width=\"1.5\"/>\n"
            for (label, value, dash) in [("p50", s.summary.p50, "2,3"), ("p99", s.summary.p99, "6,3")] where s.summary.count > 0 {
                let px = x(value)
                out += "<line x1=\"\(fmt(px))\" y1=\"\(fmt(top))\" x2=\"\(fmt(px))\" y2=\"\(fmt(top + plotH))\" stroke=\"\(color)\" stroke-dasharray=\"\(dash)\"/>\n"
                out += "<text x=\"\(fmt(px + 3))\" y=\"\(fmt(top + plotH - 6 - Double(n) * 14))\" fill=\"\(color)\">\(label)</text>\n"
            }
        }
        // Legend, top left inside the plot, on white so bars behind it do not blur it.
        if !series.isEmpty {
            out += "<rect x=\"\(fmt(left + 8))\" y=\"\(fmt(top + 6))\" width=\"\(fmt(min(plotW - 16, 560)))\" height=\"\(fmt(Double(series.count) * 18 + 6))\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#ccc\"/>\n"
        }
        for (n, s) in series.enumerated() {
            let color = Self.palette[n % Self.palette.count]
            let ly = top + 22 + Double(n) * 18
            let text = "\(s.name): \(s.summary.count) replies, p50 \(Self.duration(s.summary.p50)), p99 \(Self.duration(s.summary.p99)), max \(Self.duration(s.summary.max))"
            out += "<rect x=\"\(fmt(left + 14))\" y=\"\(fmt(ly - 10))\" width=\"12\" height=\"12\" fill=\"\(color)\" fill-opacity=\"0.5\" stroke=\"\(color)\"/>\n"
            out += "<text x=\"\(fmt(left + 32))\" y=\"\(fmt(ly))\">\(escape(text))</text>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// 1.5 → "1.5 s", 0.0123 → "12.3 ms", 0.000045 → "45 µs".
    public static func duration(_ seconds: Double) -> String {
        if seconds >= 1 { return trim(seconds) + " s" }
        if seconds >= 1e-3 { return trim(seconds * 1e3) + " ms" }
        return trim(seconds * 1e6) + " µs"
    }

    static func trim(_ v: Double) -> String {
        let rounded = v >= 100 ? v.rounded() : v >= 10 ? (v * 10).rounded() / 10 : (v * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        return String(rounded)
    }

    static func percent(_ share: Double) -> String { trim(share * 100) + "%" }

    /// The smallest of 1, 2, 2.5, 5 × 10^k that is at least `v`: round axis labels.
    static func niceCeiling(_ v: Double) -> Double {
        let base = (10.0).power(v.log10.rounded(.down))
        for m in [1.0, 2.0, 2.5, 5.0, 10.0] where m * base >= v { return m * base }
        return 10 * base
    }

    private func fmt(_ v: Double) -> String { String((v * 10).rounded() / 10) }

    private func escape(_ text: String) -> String {
        text.replacingAll("&", "&amp;").replacingAll("<", "&lt;").replacingAll(">", "&gt;")
    }
}

extension String {
    /// Foundation-free replace, enough for escaping.
    func replacingAll(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
