import Foundation

/// Reads RFC 3339 times in case files (`2026-10-10T12:00:00Z`, `…00.123Z`, `…00-07:00`).
enum RFC3339Reading {
    static func date(_ text: String) -> Date? {
        let whole = ISO8601DateFormatter()
        whole.formatOptions = [.withInternetDateTime]
        if let d = whole.date(from: text) { return d }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}
