/// A ZIP → combined sales tax rate table as Avalara publishes it (`State,ZipCode,TaxRegionName,
/// EstimatedCombinedRate,…`, rates as fractions like 0.0925): one US layer whose rate is the
/// address's ZIP's. Filed at load in a slot per five-digit ZIP, so a quote's lookup is one array
/// read however many rows the table has.
final class ZipRates: Sendable {
    /// The CSV as named in the rules, for the trace.
    let file: String
    let rowCount: Int
    /// Per ZIP5 (0…99999): 0 for no row, else 1 + the index of its rate in `rates`.
    private let slots: [UInt16]
    /// The distinct rates, as percentages.
    private let rates: [ExactDecimal]

    private static let columns: [(name: String, spellings: [String], required: Bool)] = [
        ("State", ["state"], true),
        ("ZipCode", ["zipcode", "zip"], true),
        ("EstimatedCombinedRate", ["estimatedcombinedrate", "combinedrate"], true),
    ]

    init(_ table: CSVTable) throws(RulesError) {
        let at = try table.columns(Self.columns)
        let (state, zip, combined) = (at[0]!, at[1]!, at[2]!)
        var slots = [UInt16](repeating: 0, count: 100_000)
        var rates: [ExactDecimal] = []
        var rateIndex: [ExactDecimal: UInt16] = [:]
        var lineOf: [Int32: Int] = [:]
        for row in table.rows {
            let stateCode = table.cell(row, state)
            guard stateCode.count == 2, stateCode.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
                throw table.error(row, state, "expected a two-letter state code like CA, found \"\(stateCode)\"")
            }
            let zipText = table.cell(row, zip)
            // Spreadsheets drop a ZIP's leading zeros (00501 → 501): up to five digits, padded back.
            guard (1...5).contains(zipText.utf8.count), zipText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let code = Int32(zipText) else {
                throw table.error(row, zip, "expected a five-digit ZIP code like 95014, found \"\(zipText)\"")
            }
            let rate = try RateCell.fraction(table, row, combined)
            let index: UInt16
            if let known = rateIndex[rate] {
                index = known
            } else {
                guard rates.count < Int(UInt16.max) - 1 else { throw table.error(row, combined, "more than 65,000 distinct rates in one table") }
                rates.append(rate)
                index = UInt16(rates.count)
                rateIndex[rate] = index
            }
            let slot = Int(code)
            if slots[slot] != 0 && slots[slot] != index {
                throw table.error(row, zip, "ZIP \(Self.zip5(code)) has two rates: \(rates[Int(slots[slot]) - 1])% on line \(lineOf[code] ?? 0) "
                                  + "and \(rate)% here; keep one row per ZIP")
            }
            slots[slot] = index
            lineOf[code] = row.line
        }
        self.file = table.file
        self.rowCount = table.rows.count
        self.slots = slots
        self.rates = rates
    }

    /// The combined rate (percent) of the address's ZIP: the first five digits of a ZIP or ZIP+4.
    /// Nil when the code is not a ZIP or the table has no row for it.
    func rate(postalCode: String?) -> ExactDecimal? {
        guard let code = postalCode, code.utf8.count >= 5 else { return nil }
        var value = 0
        for b in code.utf8.prefix(5) {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            value = value * 10 + Int(b - 0x30)
        }
        let slot = slots[value]
        return slot == 0 ? nil : rates[Int(slot) - 1]
    }

    static func zip5(_ code: Int32) -> String {
        let digits = String(code)
        return String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }
}
