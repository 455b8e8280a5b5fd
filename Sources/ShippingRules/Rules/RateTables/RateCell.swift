/// Rates read from rate-table cells, exactly (never through a binary float).
enum RateCell {
    /// A percentage like `7.2500`, from 0 to 100 with at most 6 decimals (what tax arithmetic carries).
    static func percent(_ table: CSVTable, _ row: CSVTable.Row, _ column: Int) throws(RulesError) -> ExactDecimal {
        let text = table.cell(row, column)
        let bare = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let value = try? ExactDecimal(parsing: bare) else {
            throw table.error(row, column, "expected a rate in percent like 7.25, found \"\(text)\"")
        }
        return try checked(value, table, row, column, shown: text)
    }

    /// A fraction like `0.0925` (9.25 %), as Avalara writes rates.
    static func fraction(_ table: CSVTable, _ row: CSVTable.Row, _ column: Int) throws(RulesError) -> ExactDecimal {
        let text = table.cell(row, column)
        guard let value = try? ExactDecimal(parsing: text) else {
            throw table.error(row, column, "expected a rate as a fraction like 0.0925 (9.25 %), found \"\(text)\"")
        }
        let percent = value.scale >= 2
            ? ExactDecimal(significand: value.significand, scale: value.scale - 2)
            : ExactDecimal(significand: value.significand * Power10.int128(2 - value.scale), scale: 0)
        return try checked(percent, table, row, column, shown: text)
    }

    private static func checked(_ value: ExactDecimal, _ table: CSVTable, _ row: CSVTable.Row, _ column: Int,
                                shown: String) throws(RulesError) -> ExactDecimal {
        guard !value.isNegative, value <= ExactDecimal(100) else {
            throw table.error(row, column, "expected a rate from 0 % to 100 %, found \"\(shown)\"")
        }
        guard value.scale <= 6 else { throw table.error(row, column, "a rate carries at most 6 decimals of a percent, found \"\(shown)\"") }
        return value
    }
}
