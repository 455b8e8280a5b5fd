/// VAT rates by country from the generated `VATRates` table (eu-vat-rates-data for the EU and the
/// UK; the Gulf states checked by hand), for tax presets such as `eu_oss`.
struct VATRate: Sendable, Equatable {
    enum Group: String, Sendable { case eu, gb, gcc }

    var country: String
    var group: Group
    /// Percent, e.g. 19.
    var standard: ExactDecimal
    var reduced: [ExactDecimal]

    static let countries: [String: VATRate] = {
        var table: [String: VATRate] = [:]
        for line in VATRates.countries.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 3, let group = Group(rawValue: fields[1]), let standard = try? ExactDecimal(parsing: fields[2][...]) else { continue }
            table[fields[0]] = VATRate(country: fields[0], group: group, standard: standard,
                                       reduced: fields.dropFirst(3).compactMap { try? ExactDecimal(parsing: $0[...]) })
        }
        return table
    }()
}
