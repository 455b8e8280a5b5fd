import Foundation

/// One merchant's compiled rules: what the worker quotes with. Load it once, quote many times;
/// it is immutable and safe to share between threads. A class: quoting passes one reference
/// where a struct of this many members was copied (a retain of each) on every quote.
public final class RuleSet: Sendable {
    /// `sha256:<hex>` of the file's bytes, and of the rate tables' it names: every reply says which
    /// rules produced it.
    public let version: String
    /// The rate tables (CSV) the rules read, full paths: a change to one is a change of the rules.
    public let rateFiles: [String]
    /// Selects this rule set in a library; optional when a worker serves one merchant.
    public let merchant: String?
    /// The grand total's label (the store name).
    public let payee: String
    /// The file name the rules came from, for messages.
    public let fileName: String

    /// What to answer to the sheet's first call (`trigger: sheet_opened`).
    public enum SheetOpened: String, Sendable, CaseIterable {
        /// Reply `keep`: the session's methods stay on the sheet.
        case keep
        /// Quote as for an address change.
        case quote
    }

    public let onSheetOpened: SheetOpened
    public let currencies: [Currency]

    struct Labels: Sendable {
        var subtotal = "Subtotal"
        var shipping = "Shipping"
        var tax = "Tax"
        /// The zero-amount line that shows tax already contained in the prices: `{label}` is the
        /// tax label (or the layer's, per layer), `{amount}` the contained tax, `{currency}` its code.
        var taxIncluded = "Includes {label} {currency} {amount}"
    }

    let rounding: RoundingPolicy
    let warehouse: Warehouse?
    /// The warehouse's calendar, its business days numbered once at load.
    let calendar: DeliveryCalendar?
    let zones: [String: Zone]
    /// In file order; asked on every quote (see `HeldObjects`).
    let serviceabilityRules: HeldObjects<ServiceabilityRule>
    var serviceability: [ServiceabilityRule] { serviceabilityRules.objects }
    let tax: TaxPolicy
    let methods: [ShippingMethodRule]
    /// The same methods behind references, as the quote asks them (see `MethodEntry`, `HeldObjects`).
    let methodEntries: HeldObjects<MethodEntry>
    let labels: Labels
    /// Answer when the address passes serviceability but no method serves it.
    let noMethodsError: ShippingError
    /// What a missing address field means (the `address:` section).
    let missingFields: MissingFieldPolicy
    /// Every zone the methods, surcharges and tax layers use, filed for lookup by address.
    let zoneIndex: ZoneIndex
    /// What `rules check` would warn about, found at load.
    public let warnings: [RulesWarning]
    /// Zone number → the methods (by position) that serve it: a quote visits the zones that
    /// hold its address, not every zone of every method.
    let methodsByZone: [[Int]]
    /// The methods without zones (they serve every serviceable address), by position.
    let methodsEverywhere: [Int]
    /// With 64 methods or fewer (nearly every rule set): `methodsByZone` and `methodsEverywhere`
    /// as bits, so that a quote's eligible methods are a few ORs, where the lists were each
    /// retained and walked.
    let methodBitsByZone: [UInt64]?
    let methodBitsEverywhere: UInt64
    /// Each tax layer's zone number, by position.
    let layerZones: [Int]
    /// With at most `maxLayersByMatch` tax layers: for each set of them (bit i for layer i), the
    /// list of those layers, made at load. A quote takes its list here instead of copying each
    /// layer that applies into a list of its own (a few reference counts a layer, and the list's
    /// allocation). Empty with more layers.
    let layersByMatch: [[TaxLayer]]
    static let maxLayersByMatch = 6
    /// Destinations' own holidays (`delivery_calendars`), their zones filed in `zoneIndex`.
    let destinationCalendars: [DestinationCalendar]
    /// False when no zone or condition names a city: quoting then skips folding the address's city.
    let usesCities: Bool

    /// Loads and checks a rules file. Errors name the file, line, column and field.
    public static func load(contentsOfFile path: String) throws(RulesError) -> RuleSet {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RulesError(kind: .unreadable, file: path, mark: nil, field: "", message: "cannot read the file (missing or not permitted)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw RulesError(kind: .unreadable, file: path, mark: nil, field: "", message: "the file is not UTF-8 text")
        }
        return try load(yaml: text, fileName: path, bytes: [UInt8](data))
    }

    /// Loads rules from YAML text; `fileName` is used in error messages only.
    public static func load(yaml: String, fileName: String) throws(RulesError) -> RuleSet {
        try load(yaml: yaml, fileName: fileName, bytes: Array(yaml.utf8))
    }

    /// `bytes` are what the version hashes: the file exactly as stored.
    private static func load(yaml: String, fileName: String, bytes: [UInt8]) throws(RulesError) -> RuleSet {
        let root: YAMLNode
        do { root = try YAMLParser.parse(bytes) } catch { throw error.rulesError(file: fileName) }
        return try RuleSetLoader(file: fileName).load(root, yamlDigest: SHA256.hex(of: bytes))
    }

    init(version: String, merchant: String?, payee: String, fileName: String, onSheetOpened: SheetOpened,
         currencies: [Currency], rounding: RoundingPolicy, warehouse: Warehouse?, zones: [String: Zone],
         serviceability: [ServiceabilityRule], tax: TaxPolicy, methods: [ShippingMethodRule],
         labels: Labels, noMethodsError: ShippingError, missingFields: MissingFieldPolicy = MissingFieldPolicy(),
         destinationCalendars: [DestinationCalendar] = [], rateFiles: [String] = []) {
        self.rateFiles = rateFiles
        self.version = version
        self.merchant = merchant
        self.payee = payee
        self.fileName = fileName
        self.onSheetOpened = onSheetOpened
        self.currencies = currencies
        self.rounding = rounding
        self.warehouse = warehouse
        self.calendar = warehouse.map { DeliveryCalendar(warehouse: $0) }
        self.zones = zones
        self.serviceabilityRules = HeldObjects(serviceability)
        self.labels = labels
        self.noMethodsError = noMethodsError
        self.missingFields = missingFields
        // Compile: number every zone the quote path consults, so one index lookup answers them all.
        var filing = ZoneIndex.Filing()
        var methods = methods
        for i in methods.indices {
            methods[i].zones = methods[i].zones?.map { filing.file($0) }
            for j in methods[i].price.surcharges.indices {
                methods[i].price.surcharges[j].zone = filing.file(methods[i].price.surcharges[j].zone)
            }
        }
        var tax = tax
        for i in tax.layers.indices { tax.layers[i].zone = filing.file(tax.layers[i].zone) }
        var calendars = destinationCalendars
        for i in calendars.indices { calendars[i].zone = filing.file(calendars[i].zone) }
        self.destinationCalendars = calendars
        self.methods = methods
        self.methodEntries = HeldObjects(methods.map(MethodEntry.init))
        self.tax = tax
        let index = filing.index
        self.zoneIndex = index
        var byZone = Array(repeating: [Int](), count: index.zones.count)
        for (i, method) in methods.enumerated() {
            for zone in method.zones ?? [] where byZone[zone.number].last != i { byZone[zone.number].append(i) }
        }
        self.methodsByZone = byZone
        self.methodsEverywhere = methods.indices.filter { methods[$0].zones == nil }
        if methods.count <= 64 {
            methodBitsByZone = byZone.map { $0.reduce(UInt64(0)) { $0 | 1 << UInt64($1) } }
            methodBitsEverywhere = methodsEverywhere.reduce(UInt64(0)) { $0 | 1 << UInt64($1) }
        } else {
            methodBitsByZone = nil
            methodBitsEverywhere = 0
        }
        self.layerZones = tax.layers.map(\.zone.number)
        let layers = tax.layers
        self.layersByMatch = layers.count <= RuleSet.maxLayersByMatch
            ? (0..<(1 << layers.count)).map { bits in layers.indices.filter { bits & (1 << $0) != 0 }.map { layers[$0] } }
            : []
        self.usesCities = index.zones.contains { $0.cities != nil || !$0.excludeCities.isEmpty }
            || tax.layers.contains { $0.table?.usesCities == true }
            || serviceability.contains { rule in rule.conditions.contains { condition in
                switch condition {
                case .cityIn, .cityNotIn: return true
                case .inZone(let z), .notInZone(let z): return z.cities != nil || !z.excludeCities.isEmpty
                default: return false
                }
            } }
        self.warnings = []
    }

    /// The same rule set with the warnings `rules check` reports.
    func with(warnings: [RulesWarning]) -> RuleSet {
        RuleSet(self, warnings: warnings)
    }

    private init(_ other: RuleSet, warnings: [RulesWarning]) {
        version = other.version; rateFiles = other.rateFiles; merchant = other.merchant; payee = other.payee; fileName = other.fileName
        onSheetOpened = other.onSheetOpened; currencies = other.currencies; rounding = other.rounding
        warehouse = other.warehouse; calendar = other.calendar; zones = other.zones; serviceabilityRules = other.serviceabilityRules; tax = other.tax
        methods = other.methods; methodEntries = other.methodEntries; labels = other.labels; noMethodsError = other.noMethodsError; missingFields = other.missingFields
        zoneIndex = other.zoneIndex; usesCities = other.usesCities; destinationCalendars = other.destinationCalendars
        methodsByZone = other.methodsByZone; methodsEverywhere = other.methodsEverywhere; methodBitsByZone = other.methodBitsByZone; methodBitsEverywhere = other.methodBitsEverywhere; layerZones = other.layerZones
        layersByMatch = other.layersByMatch
        self.warnings = warnings
    }
}
