import Foundation

/// Turns a parsed rules document into a `RuleSet`, checking every field as it goes.
/// The schema is documented in examples/rules/README.md.
struct RuleSetLoader {
    let file: String
    /// The rate tables the rules name (CSV files), read once each and hashed into the version.
    let rateFiles: RateFiles

    init(file: String) {
        self.file = file
        rateFiles = RateFiles(rulesFile: file)
    }

    private static let topKeys: Set<String> = [
        "version", "merchant", "payee", "currencies", "rounding", "warehouse", "zones", "serviceability",
        "tax", "shipping_methods", "on_sheet_opened", "labels", "no_methods_error", "address",
        "delivery_calendars",
    ]

    /// Reads every part it can and reports every independent error at once (see `RulesDiagnostics`):
    /// a broken entry is left out, and what only follows from it (a reference to a broken zone, say) is not reported again.
    /// `yamlDigest` is the SHA-256 of the file's bytes; the version adds the rate tables' (`RateFiles`).
    func load(_ root: YAMLNode, yamlDigest: String) throws(RulesError) -> RuleSet {
        let log = RulesDiagnostics()
        do {
            if let set = try load(RulesNode(node: root, file: file, path: "", log: log), yamlDigest: yamlDigest) { return set }
        } catch {
            log.record(error)
        }
        throw log.failure ?? RulesError(kind: .invalidValue, file: file, mark: root.mark, field: "", message: "the rules could not be read")
    }

    /// The rule set, or nil when errors were recorded in the log.
    private func load(_ root: RulesNode, yamlDigest: String) throws(RulesError) -> RuleSet? {
        let log = root.log
        let doc = try root.mapping("a mapping of rules (version, payee, currencies, …)", keys: Self.topKeys)
        log.attempt { () throws(RulesError) in
            let schema = try doc.required("version", "1 (the rules schema version)")
            guard try schema.string("1 (the rules schema version)") == "1" else { throw schema.expected("1 (the rules schema version)") }
        }
        let merchant = log.attempt { () throws(RulesError) in try doc["merchant"].map { (n) throws(RulesError) in try n.nonEmptyString("a merchant id like acme") } } ?? nil
        let payee = log.attempt { () throws(RulesError) in
            try doc.required("payee", "the grand total's label, like ACME Inc.").nonEmptyString("the grand total's label, like ACME Inc.")
        }
        let currencies = log.attempt { () throws(RulesError) in try loadCurrencies(try doc.required("currencies", "a list of ISO 4217 codes like [USD]")) }
        // Without readable currencies no amount can be checked; the amounts are then left for the next run.
        let amounts = AmountReader(currencies: currencies)

        let rounding = log.attempt { () throws(RulesError) in try doc["rounding"].map { (n) throws(RulesError) in try loadRounding(n) } } ?? nil
        let warehouse = log.attempt { () throws(RulesError) in try doc["warehouse"].map { (n) throws(RulesError) in try loadWarehouse(n) } } ?? nil
        let zones = loadZoneTable(doc["zones"], log: log)
        let zoneReader = ZoneReader(table: zones.table, broken: zones.broken)

        var serviceability: [ServiceabilityRule] = []
        if let list = doc["serviceability"], let entries = log.attempt({ () throws(RulesError) in try list.list() }) {
            for (i, entry) in entries.enumerated() {
                if let rule = log.attempt({ () throws(RulesError) in try loadServiceability(entry, index: i, zones: zoneReader) }) { serviceability.append(rule) }
            }
        }

        let tax = log.attempt { () throws(RulesError) in try doc["tax"].map { (n) throws(RulesError) in try loadTax(n, zones: zoneReader, amounts: amounts, level: rounding?.level) } } ?? nil

        var methods: [ShippingMethodRule] = []
        if let methodsNode = log.attempt({ () throws(RulesError) in try doc.required("shipping_methods", "a list of shipping methods") }),
           let entries = log.attempt({ () throws(RulesError) in try methodsNode.list() }) {
            let loader = MethodLoader(zones: zoneReader, amounts: amounts, hasWarehouse: doc.has("warehouse"))
            var methodIDs: Set<String> = []
            for entry in entries {
                log.attempt { () throws(RulesError) in
                    let method = try loader.load(entry)
                    guard methodIDs.insert(method.id).inserted else {
                        throw entry.error(.duplicate, "shipping method id '\(method.id)' is used twice; ids must be unique")
                    }
                    methods.append(method)
                }
            }
            if entries.isEmpty { log.record(methodsNode.expected("at least one shipping method")) }
        }

        let onSheetOpened = log.attempt { () throws(RulesError) in try doc["on_sheet_opened"].map { (n) throws(RulesError) in try n.choice(RuleSet.SheetOpened.self) } } ?? nil
        let labels = log.attempt { () throws(RulesError) in try doc["labels"].map { (n) throws(RulesError) in
            try loadLabels(n, perRate: tax?.summary == .perRate)
        } } ?? nil
        let noMethods = log.attempt { () throws(RulesError) in
            try doc["no_methods_error"].map { (n) throws(RulesError) in try loadShippingError(n, defaultCode: "SHIPPING_UNAVAILABLE") }
        } ?? nil

        let missingFields = log.attempt { () throws(RulesError) in try doc["address"].map { (n) throws(RulesError) in try AddressSectionLoader().load(n) } } ?? nil
        var calendars: [DestinationCalendar] = []
        if let list = doc["delivery_calendars"], let entries = log.attempt({ () throws(RulesError) in try list.list() }) {
            if !doc.has("warehouse") {
                log.record(list.error(.invalidValue, "delivery calendars shift transit days, which are counted on the warehouse calendar; add warehouse: {time_zone: …}"))
            }
            for entry in entries {
                if let calendar = log.attempt({ () throws(RulesError) in try loadDestinationCalendar(entry, zones: zoneReader) }) { calendars.append(calendar) }
            }
        }
        guard !log.hasErrors, let payee, let currencies else { return nil }
        let set = RuleSet(version: rateFiles.version(yamlDigest: yamlDigest), merchant: merchant, payee: payee, fileName: file, onSheetOpened: onSheetOpened ?? .quote,
                          currencies: currencies, rounding: rounding ?? RoundingPolicy(), warehouse: warehouse, zones: zones.table,
                          serviceability: serviceability, tax: tax ?? TaxPolicy(), methods: methods, labels: labels ?? RuleSet.Labels(),
                          noMethodsError: noMethods ?? ShippingError(code: "SHIPPING_UNAVAILABLE", message: "We can't ship to this address."),
                          missingFields: missingFields ?? MissingFieldPolicy(), destinationCalendars: calendars,
                          rateFiles: rateFiles.paths)
        return set.with(warnings: RulesLint(rules: set).warnings(adding: log.warnings))
    }

    private func loadCurrencies(_ node: RulesNode) throws(RulesError) -> [Currency] {
        var result: [Currency] = []
        for item in try node.list() {
            let code = try item.string("an ISO 4217 code like USD")
            guard let currency = Currency(code: code) else { throw item.expected("an ISO 4217 code like USD") }
            guard !result.contains(currency) else { throw item.error(.duplicate, "currency \(code) is listed twice") }
            result.append(currency)
        }
        guard !result.isEmpty else { throw node.expected("at least one currency") }
        return result
    }

    private func loadRounding(_ node: RulesNode) throws(RulesError) -> RoundingPolicy {
        let m = try node.mapping("a mapping like {mode: half_even, level: line}", keys: ["mode", "level"])
        var policy = RoundingPolicy()
        if let mode = m["mode"] { policy.mode = try mode.choice(RoundingMode.self) }
        if let level = m["level"] { policy.level = try level.choice(RoundingLevel.self) }
        return policy
    }

    private func loadWarehouse(_ node: RulesNode) throws(RulesError) -> Warehouse {
        let m = try node.mapping("a mapping like {time_zone: America/Los_Angeles, cutoff: \"14:00\"}",
                                 keys: ["time_zone", "cutoff", "business_days", "holidays", "open_on", "handling_days"])
        let zoneNode = try m.required("time_zone", "an IANA time zone like America/Los_Angeles")
        let zoneName = try zoneNode.string("an IANA time zone like America/Los_Angeles")
        let timeZone = try Self.timeZone(zoneNode, zoneName)
        let cutoff = try m["cutoff"].map { (n) throws(RulesError) in try n.timeOfDay() }
        let businessDays = try m["business_days"].map { (n) throws(RulesError) in try Weekday.set(n) } ?? [1, 2, 3, 4, 5]
        guard !businessDays.isEmpty else { throw m["business_days"]!.expected("at least one business day") }
        var holidays: Set<CalendarDate> = []
        if let list = m["holidays"] { holidays = Set(try HolidayReader.days(list).map(CalendarDate.init(daysSinceEpoch:))) }
        // Days a holiday region lists that the warehouse works all the same (Columbus Day, say).
        if let list = m["open_on"] {
            for item in try list.list() {
                let date = try item.date()
                guard holidays.remove(date) != nil else {
                    throw item.error(.invalidValue, "\(date) is not among the warehouse's holidays, so open_on changes nothing; leave it out")
                }
            }
        }
        let handling = try m["handling_days"].map { (n) throws(RulesError) in try n.int("a number of business days", in: 0...60) } ?? 0
        return Warehouse(timeZone: timeZone, cutoffMinutes: cutoff, businessDays: businessDays, holidays: holidays, handlingDays: handling)
    }

    /// The named zones, and the ids of entries that failed to load: references to those are not reported again.
    /// When `zones:` is no list at all, every reference is taken as one to a broken entry (`broken` is nil).
    private func loadZoneTable(_ node: RulesNode?, log: RulesDiagnostics) -> (table: [String: Zone], broken: Set<String>?) {
        guard let node else { return ([:], []) }
        guard let entries = log.attempt({ () throws(RulesError) in try node.list() }) else { return ([:], nil) }
        var table: [String: Zone] = [:]
        var broken: Set<String> = []
        for entry in entries {
            log.attempt { () throws(RulesError) in
                let zone: Zone
                do throws(RulesError) { zone = try ZoneReader.zone(entry, named: true) } catch {
                    if case .mapping(let pairs, _) = entry.node, case .scalar(let id)? = pairs.first(where: { $0.key.text == "id" })?.value {
                        broken.insert(id.text)
                    }
                    throw error
                }
                guard let id = zone.id else { return }
                guard table[id] == nil else { throw entry.error(.duplicate, "zone id '\(id)' is used twice; ids must be unique") }
                table[id] = zone
            }
        }
        return (table, broken)
    }

    private func loadServiceability(_ node: RulesNode, index: Int, zones: ZoneReader) throws(RulesError) -> ServiceabilityRule {
        let m = try node.mapping("a mapping like {when: {country_not_in: [US]}, error: {code: …, message: …}}", keys: ["when", "error"])
        let when = try m.required("when", "the conditions, like {country_not_in: [US]}")
        let conditions = try AddressConditionReader(zones: zones).conditions(when)
        let error = try loadShippingError(try m.required("error", "{code: COUNTRY_NOT_SUPPORTED, message: …}"), defaultCode: nil)
        return ServiceabilityRule(conditions: conditions, error: error, index: index, mark: node.mark)
    }

    /// An IANA zone. An abbreviation that names a fixed offset (EST) loads with a warning: it keeps
    /// standard time all summer, an hour off the warehouse's clock, so cutoffs and days shift.
    private static func timeZone(_ node: RulesNode, _ name: String) throws(RulesError) -> TimeZone {
        let meant = PlaceCodes.timeZoneAbbreviations[name.uppercased()]
        guard let zone = TimeZone(identifier: name) else {
            var message = "expected an IANA time zone like America/Los_Angeles, found \(node.node.shortDescription)"
            if let meant { message += "; did you mean \(meant)?" }
            throw node.error(.invalidValue, message)
        }
        if !name.contains("/"), !PlaceCodes.universal.contains(name), zone.nextDaylightSavingTimeTransition == nil {
            let offset = zone.secondsFromGMT()
            let text = String(format: "UTC%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) % 3600 / 60)
            node.log.warn(RulesWarning(kind: .fixedOffsetTimeZone, file: node.file, mark: node.mark, field: node.path,
                                       message: "\"\(name)\" is a fixed offset (\(text)) all year, not the warehouse's local time: where daylight "
                                       + "saving time is kept, cutoffs fall an hour off in summer and quotes can promise delivery a day early; "
                                       + "write the IANA zone of the warehouse, like \(meant ?? "America/New_York")"))
        }
        return zone
    }

    private func loadShippingError(_ node: RulesNode, defaultCode: String?) throws(RulesError) -> ShippingError {
        let m = try node.mapping("a mapping like {code: COUNTRY_NOT_SUPPORTED, message: \"We ship to the US only\"}", keys: ["code", "message"])
        let codeWhat = "an error code like COUNTRY_NOT_SUPPORTED (A-Z, 0-9, _)"
        let code: String
        if let c = m["code"] {
            code = try c.string(codeWhat)
            guard !code.isEmpty, code.allSatisfy({ ($0.isASCII && ($0.isUppercase || $0.isNumber)) || $0 == "_" }) else { throw c.expected(codeWhat) }
        } else if let defaultCode {
            code = defaultCode
        } else {
            _ = try m.required("code", codeWhat)
            code = ""
        }
        let message = try m.required("message", "the text shown to the customer").nonEmptyString("the text shown to the customer")
        return ShippingError(code: code, message: message)
    }

    private func loadTax(_ node: RulesNode, zones: ZoneReader, amounts: AmountReader, level: RoundingLevel?) throws(RulesError) -> TaxPolicy {
        let m = try node.mapping("a mapping like {layers: […], summary: combined}", keys: ["layers", "summary", "included_in_prices"])
        var policy = TaxPolicy()
        if let summary = m["summary"] {
            policy.summary = try summary.choice(TaxPolicy.Summary.self)
            // A line per rate shows what was rounded per rate; other levels round across rates.
            if policy.summary == .perRate && (level ?? .line) != .rate {
                throw summary.error(.invalidValue, "summary: per_rate shows the tax rounded once per rate; add rounding: {level: rate}")
            }
        }
        if let inclusive = m["included_in_prices"] { policy.includedInPrices = try inclusive.bool() }
        var ids: Set<String> = []
        for entry in try m["layers"]?.list() ?? [] {
            if case .mapping(let pairs, _) = entry.node, pairs.contains(where: { $0.key.text == "preset" }) {
                let layers = node.log.attempt { () throws(RulesError) in
                    try TaxPresetReader(zones: zones, includedByDefault: policy.includedInPrices).layers(entry)
                } ?? []
                for layer in layers {
                    if ids.insert(layer.id).inserted { policy.layers.append(layer) }
                    else { node.log.record(entry.error(.duplicate, "tax layer id '\(layer.id)' is used twice; ids must be unique")) }
                }
                continue
            }
            node.log.attempt { () throws(RulesError) in
                let layer = try loadLayer(entry, zones: zones, amounts: amounts, includedByDefault: policy.includedInPrices)
                guard ids.insert(layer.id).inserted else { throw entry.error(.duplicate, "tax layer id '\(layer.id)' is used twice; ids must be unique") }
                policy.layers.append(layer)
                if layer.table != nil { policy.hasRateTables = true }
            }
        }
        return policy
    }

    private func loadLayer(_ node: RulesNode, zones: ZoneReader, amounts: AmountReader,
                           includedByDefault: Bool) throws(RulesError) -> TaxLayer {
        let m = try node.mapping("a tax layer like {id: ca, zone: {country: US, state: CA}, rate: 7.25%}",
                                 keys: ["id", "label", "zone", "rate", "shipping", "categories", "included_in_prices", "zip_rates", "import", "file"])
        let id = try m.required("id", "a layer id like ca").nonEmptyString("a layer id like ca")
        let label = try m["label"]?.nonEmptyString("a label like CA sales tax") ?? id
        if let kind = m["import"] {
            return try loadImport(m, kind: kind, node: node, id: id, label: label, zones: zones, includedByDefault: includedByDefault)
        }
        if let file = m["file"] { throw file.error(.unknownKey, "file names the CSV of an import; add import: woocommerce, or use zip_rates: for a ZIP rate table") }
        var table: RateTable?
        if let zipRates = m["zip_rates"] {
            if let rate = m["rate"] { throw rate.error(.invalidValue, "a layer with zip_rates takes its rate from the table's ZIP rows; remove rate") }
            table = .zipRates(try rateFiles.zipRates(zipRates))
        }
        // A ZIP table is a US table: its layer applies to US addresses unless a zone narrows it.
        var zone = Zone()
        if table != nil && !m.has("zone") {
            zone.countries = ["US"]
            zone.mark = node.mark
            zone.field = node.path
        } else {
            zone = try zones.reference(try m.required("zone", "a zone id or a zone like {country: US, state: CA}"))
        }
        let rate = table != nil ? ExactDecimal(0) : try m.required("rate", "a rate like 7.25%").rate()
        let shipping = try m["shipping"]?.choice(TaxLayer.ShippingTreatment.self) ?? .exempt
        let included = try m["included_in_prices"]?.bool() ?? includedByDefault
        var categories: [String: TaxLayer.CategoryRate] = [:]
        if let cats = m["categories"] {
            let map = try cats.mapping("a mapping of category to rate, like {books: 0%}", keys: Set(Self.keys(of: cats)))
            for key in Self.keys(of: cats) {
                let value = map[key]!
                if case .mapping = value.node {
                    let c = try value.mapping("{rate: 0%, when_unit_below: 110.00}", keys: ["rate", "when_unit_below"])
                    categories[key] = .init(rate: try c.required("rate", "a rate like 0%").rate(),
                                            whenUnitBelow: try c["when_unit_below"].map { (n) throws(RulesError) in try amounts.amount(n) })
                } else {
                    categories[key] = .init(rate: try value.rate(), whenUnitBelow: nil)
                }
            }
        }
        return TaxLayer(id: id, label: label, zone: zone, rate: rate, shipping: shipping, categories: categories,
                        includedInPrices: included, mark: node.mark, field: node.path, table: table)
    }

    /// `{id: woo, import: woocommerce, file: rates/woo.csv}`: the rows' own rates, priorities,
    /// compound and shipping flags and tax classes apply, so those keys are refused here.
    private func loadImport(_ m: RulesMapping, kind: RulesNode, node: RulesNode, id: String, label: String, zones: ZoneReader,
                            includedByDefault: Bool) throws(RulesError) -> TaxLayer {
        guard try kind.string("woocommerce") == "woocommerce" else { throw kind.expected("woocommerce (the only import so far)") }
        for key in ["rate", "shipping", "categories", "zip_rates"] {
            if let given = m[key] {
                throw given.error(.invalidValue, "an imported table's rows give \(key == "categories" ? "the tax classes' rates" : key); remove \(key)")
            }
        }
        let woo = try rateFiles.wooCommerce(try m.required("file", "the CSV WooCommerce exported, like rates/woo.csv"))
        let included = try m["included_in_prices"]?.bool() ?? includedByDefault
        if included, let compound = woo.rates.first(where: \.compound) {
            throw m["file"]!.error(.invalidValue, "\(woo.file) line \(compound.line): compound rates on prices that include tax are not supported; "
                                  + "import the table with included_in_prices: false or make the row non-compound")
        }
        let zone = try m["zone"].map { (n) throws(RulesError) in try zones.reference(n) } ?? Zone()
        return TaxLayer(id: id, label: label, zone: zone, rate: ExactDecimal(0), shipping: .exempt, categories: [:],
                        includedInPrices: included, mark: node.mark, field: node.path, table: .wooCommerce(woo))
    }

    private func loadDestinationCalendar(_ node: RulesNode, zones: ZoneReader) throws(RulesError) -> DestinationCalendar {
        let m = try node.mapping("a calendar like {zone: {country: US, state: HI}, holidays: [2027-06-11]}", keys: ["zone", "holidays"])
        let zone = try zones.reference(try m.required("zone", "a zone id or a zone like {country: US, state: HI}"))
        let list = try m.required("holidays", "the dates carriers do not deliver there, like [2027-06-11] or [US-HI]")
        let days = try HolidayReader.days(list)
        guard !days.isEmpty else { throw list.expected("at least one date like 2027-06-11 or a region like US-HI") }
        return DestinationCalendar(zone: zone, holidays: days.sorted(), field: node.path)
    }

    private func loadLabels(_ node: RulesNode, perRate: Bool) throws(RulesError) -> RuleSet.Labels {
        let m = try node.mapping("a mapping like {subtotal: Subtotal, shipping: Shipping, tax: Tax}",
                                 keys: ["subtotal", "shipping", "tax", "tax_included"])
        var labels = RuleSet.Labels()
        if let n = m["subtotal"] { labels.subtotal = try n.nonEmptyString("a label") }
        if let n = m["shipping"] { labels.shipping = try n.nonEmptyString("a label") }
        if let n = m["tax"] { labels.tax = try n.nonEmptyString("a label") }
        if let n = m["tax_included"] {
            let what = "a label like \"Includes {label} {currency} {amount}\" ({amount} is required)"
            let text = try n.nonEmptyString(what)
            guard text.contains("{amount}") else { throw n.expected(what) }
            if text.contains("{rate}") && !perRate {
                throw n.error(.invalidValue, "{rate} names one rate; it needs tax: {summary: per_rate}")
            }
            labels.taxIncluded = text
        }
        return labels
    }

    static func keys(of node: RulesNode) -> [String] {
        guard case .mapping(let pairs, _) = node.node else { return [] }
        return pairs.map(\.key.text)
    }
}

/// Day names in rules files: mon, tue, … (0 = Sunday, as `CalendarDate.weekday`).
enum Weekday {
    static let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let fullNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    static func set(_ node: RulesNode) throws(RulesError) -> Set<Int> {
        var days: Set<Int> = []
        for item in try node.list() {
            let name = try item.string("a day like mon").lowercased()
            guard let index = names.firstIndex(of: name) ?? fullNames.firstIndex(of: name) else {
                throw item.expected("a day: sun, mon, tue, wed, thu, fri or sat")
            }
            days.insert(index)
        }
        return days
    }
}
