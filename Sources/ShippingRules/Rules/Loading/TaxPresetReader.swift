/// Reads a preset layer, `{preset: eu_oss, shipping: follow_goods, countries: {IE: 23%}}`: one
/// destination-VAT layer per country of the preset, at the reference data's standard rate unless
/// `countries:` overrides it (a rate, or `{rate: 20%, categories: {books: 5.5%}}`).
struct TaxPresetReader {
    let zones: ZoneReader
    let includedByDefault: Bool

    static let keys: Set<String> = ["preset", "label", "shipping", "included_in_prices", "countries"]

    func layers(_ node: RulesNode) throws(RulesError) -> [TaxLayer] {
        let m = try node.mapping("a preset like {preset: eu_oss, shipping: follow_goods}", keys: Self.keys)
        let preset = try m.required("preset", "a preset").choice(TaxPreset.self)
        let label = try m["label"]?.nonEmptyString("a label like VAT") ?? "VAT"
        // VAT follows the goods on shipping (HMRC's and the EU's rule) unless the rules say otherwise.
        let shipping = try m["shipping"]?.choice(TaxLayer.ShippingTreatment.self) ?? .followGoods
        let included = try m["included_in_prices"]?.bool() ?? includedByDefault
        let rates = preset.rates
        var overrides: [String: (rate: ExactDecimal, categories: [String: TaxLayer.CategoryRate])] = [:]
        if let countries = m["countries"] {
            let codes = Set(rates.map(\.country))
            let map = try countries.mapping("rates per country like {IE: 23%}", keys: codes)
            for key in RuleSetLoader.keys(of: countries) {
                guard let value = map[key] else { continue }
                if case .mapping = value.node {
                    let c = try value.mapping("{rate: 20%, categories: {books: 5.5%}}", keys: ["rate", "categories"])
                    let rate = try c["rate"]?.rate() ?? rates.first { $0.country == key }!.standard
                    var categories: [String: TaxLayer.CategoryRate] = [:]
                    if let cats = c["categories"] {
                        let names = RuleSetLoader.keys(of: cats)
                        let cm = try cats.mapping("a mapping of category to rate, like {books: 0%}", keys: Set(names))
                        for name in names { if let n = cm[name] { categories[name] = .init(rate: try n.rate(), whenUnitBelow: nil) } }
                    }
                    overrides[key] = (rate, categories)
                } else {
                    overrides[key] = (try value.rate(), [:])
                }
            }
        }
        return rates.map { vat in
            var zone = Zone()
            zone.countries = [vat.country]
            zone.mark = node.mark
            zone.field = node.path
            let override = overrides[vat.country]
            return TaxLayer(id: "\(preset.rawValue)-\(vat.country.lowercased())", label: label, zone: zone,
                            rate: override?.rate ?? vat.standard, shipping: shipping, categories: override?.categories ?? [:],
                            includedInPrices: included, mark: node.mark, field: node.path)
        }
    }
}
