import Benchmarking
import Testing

@Suite struct LatencySummaryTests {
    @Test func percentilesAreNearestRankSamples() {
        let samples = (1...1000).map { Double($0) / 1000 }.shuffled()
        let s = LatencySummary(samples: samples)
        #expect(s.count == 1000)
        #expect(s.p50 == 0.5)
        #expect(s.p90 == 0.9)
        #expect(s.p99 == 0.99)
        #expect(s.p999 == 0.999)
        #expect(s.max == 1.0)
    }

    @Test func aSingleSampleIsEveryPercentileAndNoneIsZero() {
        let one = LatencySummary(samples: [0.004])
        #expect(one.p50 == 0.004 && one.p99 == 0.004 && one.p999 == 0.004 && one.max == 0.004)
        let none = LatencySummary(samples: [])
        #expect(none.count == 0 && none.p99 == 0 && none.max == 0)
    }

    @Test func p999OfTenThousandSeesTheEleventhLargestButNotTheTenth() {
        var samples = [Double](repeating: 0.001, count: 9_989)
        samples += (1...11).map { Double($0) }          // eleven outliers: 1 s … 11 s
        #expect(LatencySummary(samples: samples).p999 == 1.0)
        #expect(LatencySummary(samples: samples).p99 == 0.001)
        // Ten outliers are exactly the 0.1% above p99.9.
        #expect(LatencySummary(samples: [Double](repeating: 0.001, count: 9_990) + (1...10).map { Double($0) }).p999 == 0.001)
    }
}

@Suite struct LogHistogramTests {
    @Test func bucketsAreLogarithmicAndClampAtTheEnds() {
        var h = LogHistogram(lowest: 1e-5, highest: 100, bucketsPerDecade: 10)
        #expect(h.counts.count == 70)
        h.record(1e-7)                                  // below: first bucket
        h.record(1e3)                                   // above: last bucket
        h.record(1.5e-3)                                // 1.5 ms: decade 2 (1 ms…10 ms), step 1 (1.26…1.58 ms)
        #expect(h.counts[0] == 1)
        #expect(h.counts[69] == 1)
        #expect(h.counts[21] == 1)
        let (lower, upper) = h.bounds(of: 21)
        #expect(lower <= 1.5e-3 && 1.5e-3 < upper)
        #expect(h.total == 3)
        #expect(h.occupied == 0...69)
    }
}

@Suite struct HistogramChartTests {
    @Test func theChartIsOneSVGDocumentWithEverySeriesAndItsMarkers() {
        let fast = (0..<1000).map { 0.001 + Double($0 % 100) * 1e-5 }
        let slow = fast.map { $0 * 3 }
        let chart = HistogramChart(title: "a <test> & title", series: [
            .init(name: "echo", histogram: LogHistogram(samples: fast), summary: LatencySummary(samples: fast)),
            .init(name: "shipquote", histogram: LogHistogram(samples: slow), summary: LatencySummary(samples: slow)),
        ])
        let svg = chart.svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.contains("a &lt;test&gt; &amp; title"))
        #expect(svg.split(separator: "<polygon", omittingEmptySubsequences: false).count == 3)
        #expect(svg.contains("echo: 1000 replies"))
        #expect(svg.contains(">1 ms<"))                 // a decade tick of the log axis
        #expect(svg.contains(">p99<"))
    }

    @Test func durationsReadAsPeopleWriteThem() {
        #expect(HistogramChart.duration(0.0000452) == "45.2 µs")
        #expect(HistogramChart.duration(0.0123) == "12.3 ms")
        #expect(HistogramChart.duration(2) == "2 s")
    }
}
