/// A preset of tax layers: destination VAT for a group of countries, one layer a country.
enum TaxPreset: String, Sendable, CaseIterable {
    /// The EU's One-Stop Shop: each member state's standard VAT, charged at the destination.
    case euOSS = "eu_oss"
    /// The UK's VAT.
    case ukVAT = "uk_vat"
    /// The Gulf states that levy VAT (AE, BH, OM, SA); KW and QA levy none yet.
    case gccVAT = "gcc_vat"

    /// The countries' rates, in code order; countries without VAT are left out.
    var rates: [VATRate] {
        let group: VATRate.Group = switch self {
        case .euOSS: .eu
        case .ukVAT: .gb
        case .gccVAT: .gcc
        }
        return VATRate.countries.values.filter { $0.group == group && $0.standard.significand != 0 }.sorted { $0.country < $1.country }
    }
}
