import Foundation

/// The Prometheus text exposition format, version 0.0.4:
/// https://prometheus.io/docs/instrumenting/exposition_formats/
enum PrometheusText {
    static func append(_ family: MetricFamily, to out: inout String) {
        out += "# HELP \(family.name) \(escapeHelp(family.help))\n"
        out += "# TYPE \(family.name) \(family.kind.typeName)\n"
        switch family.kind {
        case .counter, .gauge:
            for labels in family.scalars.keys.sorted(by: lexicographic) {
                out += family.name + labelSet(family.labelNames, labels) + " " + number(family.scalars[labels]!) + "\n"
            }
        case .histogram(let bounds):
            for labels in family.histograms.keys.sorted(by: lexicographic) {
                let series = family.histograms[labels]!
                var cumulative: UInt64 = 0
                for (bound, count) in zip(bounds, series.bucketCounts) {
                    cumulative += count
                    out += family.name + "_bucket" + labelSet(family.labelNames + ["le"], labels + [number(bound)])
                        + " \(cumulative)\n"
                }
                out += family.name + "_bucket" + labelSet(family.labelNames + ["le"], labels + ["+Inf"]) + " \(series.count)\n"
                out += family.name + "_sum" + labelSet(family.labelNames, labels) + " " + number(series.sum) + "\n"
                out += family.name + "_count" + labelSet(family.labelNames, labels) + " \(series.count)\n"
            }
        }
    }

    static func labelSet(_ names: [String], _ values: [String]) -> String {
        guard !names.isEmpty else { return "" }
        return "{" + zip(names, values).map { "\($0)=\"\(escapeLabelValue($1))\"" }.joined(separator: ",") + "}"
    }

    /// Label values escape backslash, double quote and line feed.
    static func escapeLabelValue(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Help text escapes backslash and line feed (a quote needs no escape there).
    static func escapeHelp(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Whole numbers without a fraction (counters read `12`, not `12.0`), infinities as `+Inf`/`-Inf`.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func isValidMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" || first == ":" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == ":" }
    }

    static func isValidLabelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_", !name.hasPrefix("__") else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }
    }

    private static func lexicographic(_ a: [String], _ b: [String]) -> Bool { a.lexicographicallyPrecedes(b) }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
