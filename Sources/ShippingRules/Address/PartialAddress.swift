/// The part of a shipping address a wallet shares before authorization. Every field may be
/// missing; street lines never appear. Postal codes may be shortened (UK outward code, Canadian FSA).
public struct PartialAddress: Hashable, Sendable {
    public let city: String?
    public let state: String?
    public let postalCode: String?
    /// ISO 3166-1 alpha-2, upper case.
    public let countryCode: String?

    public init(city: String? = nil, state: String? = nil, postalCode: String? = nil, countryCode: String? = nil) {
        self.city = city
        self.state = state
        self.postalCode = postalCode
        self.countryCode = countryCode
    }
}
