/// The part of a shipping address a wallet shares before authorization. Every field may be
/// missing; street lines never appear. Postal codes may be shortened (UK outward code, Canadian FSA).
public struct PartialAddress: Hashable, Sendable {
    public var city: String?
    public var state: String?
    public var postalCode: String?
    /// ISO 3166-1 alpha-2, upper case.
    public var countryCode: String?

    public init(city: String? = nil, state: String? = nil, postalCode: String? = nil, countryCode: String? = nil) {
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.countryCode = countryCode
    }
}
