/// A table of rates a merchant already keeps, named by a tax layer: the layer stands for what the
/// table says at the quote's address.
enum RateTable: Sendable {
    case zipRates(ZipRates)
    case wooCommerce(WooCommerceRates)

    var file: String {
        switch self {
        case .zipRates(let t): t.file
        case .wooCommerce(let t): t.file
        }
    }

    var usesCities: Bool {
        if case .wooCommerce(let t) = self { return t.usesCities }
        return false
    }
}

extension TaxLayer {
    /// Replaces each table layer by what it stands for at the address: itself with the ZIP's rate,
    /// one layer per WooCommerce priority that matches, or nothing when the table has no row for
    /// the address. In place: the layers without tables are not copied again.
    static func resolveTables(_ layers: inout [TaxLayer], at address: ResolvedAddress, trace: inout Trace) {
        var i = 0
        while i < layers.count {
            switch layers[i].table {
            case nil:
                i += 1
            case .zipRates(let zips)?:
                let id = layers[i].id
                guard let rate = zips.rate(postalCode: address.postalCode) else {
                    trace.add("tax layer \(id) does not apply: no row for ZIP \(address.postalCode.map { String($0.prefix(5)) } ?? "(none)") in \(zips.file)")
                    layers.remove(at: i)
                    continue
                }
                layers[i].table = nil
                layers[i].rate = rate
                trace.add("tax layer \(id): ZIP \(address.postalCode.map { String($0.prefix(5)) } ?? "") is \(rate)% in \(zips.file)")
                i += 1
            case .wooCommerce(let woo)?:
                let rows = woo.matching(country: address.country, state: address.state, city: address.city, postalCode: address.postalCode)
                if rows.isEmpty { trace.add("tax layer \(layers[i].id) does not apply: no row of \(woo.file) matches the address") }
                let expanded = rows.isEmpty ? [] : layers[i].wooLayers(rows, classes: woo.classes, trace: &trace)
                layers.replaceSubrange(i...i, with: expanded)
                i += expanded.count
            }
        }
    }

    /// One layer per priority. A class's compound row is charged on the goods plus the class's
    /// non-compound taxes (r × (100 + R) / 100); on shipping, plus those that tax shipping.
    private func wooLayers(_ rows: [WooCommerceRates.Rate], classes: [String], trace: inout Trace) -> [TaxLayer] {
        func simple(_ taxClass: String, shippingOnly: Bool = false) -> ExactDecimal {
            rows.filter { !$0.compound && $0.taxClass == taxClass && (!shippingOnly || $0.shipping) }.map(\.rate).reduce(ExactDecimal(0), +)
        }
        func effective(_ row: WooCommerceRates.Rate?, over others: ExactDecimal) -> ExactDecimal {
            guard let row else { return ExactDecimal(0) }
            return row.compound ? row.rate.compounded(over: others) : row.rate
        }
        let standardOthers = simple("")
        let classOthers = classes.map { simple($0) }
        var result: [TaxLayer] = []
        var priorities: [Int] = []
        for row in rows where priorities.last != row.priority { priorities.append(row.priority) }
        for priority in priorities {
            let here = rows.filter { $0.priority == priority }
            let standard = here.first { $0.taxClass.isEmpty }
            var layer = self
            layer.table = nil
            layer.id = "\(id)-\(priority)"
            layer.label = (here.first { !$0.name.isEmpty }?.name) ?? label
            layer.rate = effective(standard, over: standardOthers)
            layer.shipping = standard?.shipping == true ? .taxable : .exempt
            if let standard, standard.compound, standard.shipping {
                let onShipping = standard.rate.compounded(over: simple("", shippingOnly: true))
                if onShipping != layer.rate { layer.shippingRate = onShipping }
            }
            layer.categories = [:]
            for (k, taxClass) in classes.enumerated() {
                layer.categories[taxClass] = CategoryRate(rate: effective(here.first { $0.taxClass == taxClass }, over: classOthers[k]), whenUnitBelow: nil)
            }
            trace.add("tax layer \(layer.id): " + here.map(Self.describe).joined(separator: ", "))
            result.append(layer)
        }
        return result
    }
}

extension TaxLayer {
    fileprivate static func describe(_ row: WooCommerceRates.Rate) -> String {
        let name = row.name.isEmpty ? "(unnamed)" : row.name
        let kind = row.compound ? " compound" : ""
        let taxClass = row.taxClass.isEmpty ? "" : " class \(row.taxClass)"
        return "\(name) \(row.rate)%\(kind)\(taxClass) (line \(row.line))"
    }
}

extension ExactDecimal {
    static func + (a: ExactDecimal, b: ExactDecimal) -> ExactDecimal {
        let k = max(a.scale, b.scale)
        return ExactDecimal(significand: a.significand * Power10.int128(k - a.scale) + b.significand * Power10.int128(k - b.scale), scale: k)
    }

    /// This rate (percent) charged on an amount plus `others` percent of tax on it: r × (100 + R) / 100.
    func compounded(over others: ExactDecimal) -> ExactDecimal {
        let base = Power10.int128(others.scale + 2) + others.significand
        return ExactDecimal(significand: significand * base, scale: scale + others.scale + 2)
    }
}

extension RuleSet {
    /// This rule set with one more tax layer whose rate is the address's ZIP's in `csv` (Avalara's
    /// layout): how `bench rules` measures a merchant's 40,000-row table on any rules.
    public func adding(zipRateLayer id: String, csv: [UInt8], fileName: String) throws(RulesError) -> RuleSet {
        let table = try ZipRates(try CSVTable(bytes: csv, file: fileName))
        var zone = Zone()
        zone.countries = ["US"]
        var tax = self.tax
        tax.layers.append(TaxLayer(id: id, label: "Sales tax", zone: zone, rate: ExactDecimal(0), shipping: .exempt,
                                   categories: [:], table: .zipRates(table)))
        tax.hasRateTables = true
        let manifest = "rules \(version)\n\(fileName) \(SHA256.hex(of: csv))\n"
        return RuleSet(version: "sha256:" + SHA256.hex(of: Array(manifest.utf8)), merchant: merchant, payee: payee, fileName: self.fileName,
                       onSheetOpened: onSheetOpened, currencies: currencies, rounding: rounding, warehouse: warehouse, zones: zones,
                       serviceability: serviceability, tax: tax, methods: methods, labels: labels, noMethodsError: noMethodsError,
                       missingFields: missingFields, destinationCalendars: destinationCalendars, rateFiles: rateFiles + [fileName])
            .with(warnings: warnings)
    }
}
