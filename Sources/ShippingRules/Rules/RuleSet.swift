import Foundation

/// One merchant's compiled rules: what the worker quotes with. Load it once, quote many times;
/// it is immutable and safe to share between threads.
public struct RuleSet: Sendable {
    /// `sha256:<hex>` of the file's bytes: every reply says which rules produced it.
    public let version: String
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
    }

    let rounding: RoundingPolicy
    let warehouse: Warehouse?
    let zones: [String: Zone]
    let serviceability: [ServiceabilityRule]
    let tax: TaxPolicy
    let methods: [ShippingMethodRule]
    let labels: Labels
    /// Answer when the address passes serviceability but no method serves it.
    let noMethodsError: ShippingError

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
        do { root = try YAMLParser.parse(yaml) } catch {
            throw RulesError(kind: .syntax, file: fileName, mark: error.mark, field: "", message: error.message)
        }
        return try RuleSetLoader(file: fileName).load(root, version: "sha256:" + SHA256.hex(of: bytes))
    }

    init(version: String, merchant: String?, payee: String, fileName: String, onSheetOpened: SheetOpened,
         currencies: [Currency], rounding: RoundingPolicy, warehouse: Warehouse?, zones: [String: Zone],
         serviceability: [ServiceabilityRule], tax: TaxPolicy, methods: [ShippingMethodRule],
         labels: Labels, noMethodsError: ShippingError) {
        self.version = version
        self.merchant = merchant
        self.payee = payee
        self.fileName = fileName
        self.onSheetOpened = onSheetOpened
        self.currencies = currencies
        self.rounding = rounding
        self.warehouse = warehouse
        self.zones = zones
        self.serviceability = serviceability
        self.tax = tax
        self.methods = methods
        self.labels = labels
        self.noMethodsError = noMethodsError
    }
}
