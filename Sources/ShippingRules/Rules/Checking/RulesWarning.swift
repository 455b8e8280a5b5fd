/// Something in a rules file that loads but is probably not what the merchant meant: a method
/// nobody can be offered, a postal rule a shortened postcode never meets, a tax charged twice.
/// `rules check` prints these and still exits 0.
public struct RulesWarning: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// A postal pattern that Apple Pay's shortened codes (UK outward code, Canadian FSA) never meet.
        case shortenedPostcode = "shortened-postcode"
        /// A rule that would need more of the address than a wallet shares (street level).
        case streetLevel = "street-level"
        /// A serviceability rule that earlier rules always answer first, or that can never hold.
        case unreachableRule = "unreachable-rule"
        /// A method or tax layer no serviceable address can reach.
        case unreachableMethod = "unreachable-method"
        case unreachableTaxLayer = "unreachable-tax-layer"
        /// Two methods the sheet would show as the same option.
        case overlappingMethods = "overlapping-methods"
        /// Two tax layers that charge the same addresses twice, or mix added and contained tax.
        case overlappingTaxLayers = "overlapping-tax-layers"
        /// A time zone that is a fixed offset (EST) where the warehouse keeps daylight saving time.
        case fixedOffsetTimeZone = "fixed-offset-time-zone"
        /// A method offered until a time of day later than the cutoff its ship date is counted on:
        /// orders in between are promised "today" and leave the next business day.
        case orderBeforeAfterCutoff = "order-before-after-cutoff"
        /// A rate below 0.1 % written without %: most likely a fraction (0.0725) meant as a percentage (7.25 %).
        case tinyRate = "tiny-rate"
    }

    public let kind: Kind
    public let file: String
    public let mark: SourceMark
    /// The field path, like `shipping_methods[2]`.
    public let field: String
    public let message: String

    public init(kind: Kind, file: String, mark: SourceMark, field: String, message: String) {
        self.kind = kind
        self.file = file
        self.mark = mark
        self.field = field
        self.message = message
    }

    public var description: String {
        "\(file):\(mark.line):\(mark.column): warning: \(field.isEmpty ? "" : field + ": ")\(message) [\(kind.rawValue)]"
    }
}
