import Foundation

/// The one-argument way to write a partial address on a command line or in a case file:
/// `COUNTRY/STATE/POSTAL/CITY`, e.g. `US/CA/95014/Cupertino`, `GB//SW1A/London`, `US/OR`.
/// An empty part (or `-`) is a missing field; trailing parts may be left off.
public enum AddressShorthand {
    public static func parse(_ text: String) -> PartialAddress {
        let parts = text.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        func part(_ i: Int) -> String? {
            guard i < parts.count else { return nil }
            let value = parts[i].trimmingCharacters(in: .whitespaces)
            return value.isEmpty || value == "-" ? nil : value
        }
        return PartialAddress(city: part(3), state: part(1), postalCode: part(2), countryCode: part(0))
    }

    /// The address written back in the same form, missing fields left empty.
    public static func format(_ address: PartialAddress) -> String {
        [address.countryCode, address.state, address.postalCode, address.city].map { $0 ?? "" }.joined(separator: "/")
    }
}
