import Testing
@testable import QuoteContract

@Suite("Known texts")
struct KnownTextsTests {
    static func known(_ bytes: [UInt8]) -> String? { bytes.withUnsafeBufferPointer { KnownTexts.text($0) } }

    @Test("every pair of capital letters is its own text, and no other two bytes are known")
    func capitalPairs() {
        var known = 0
        for first in UInt8(0)...UInt8(255) {
            for second in UInt8(0)...UInt8(255) {
                let capitals = (65...90).contains(first) && (65...90).contains(second)
                let text = Self.known([first, second])
                if text != nil { known += 1 }
                if capitals {
                    #expect(text == String(decoding: [first, second], as: UTF8.self), "\(first) \(second)")
                } else if let text {
                    Issue.record("\(first) \(second) read as \(text)")
                }
            }
        }
        #expect(known == 676)
        #expect(Self.known(Array("US".utf8)) == "US" && Self.known(Array("us".utf8)) == nil && Self.known(Array("U".utf8)) == nil)
    }

    @Test("the wallets' names are known exactly, and a byte changed anywhere in them is not")
    func walletNames() {
        func words(_ text: String) -> UInt64 { text.utf8.enumerated().reduce(0) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) } }
        #expect(KnownTexts.applePa == words("APPLE_PA") && KnownTexts.googleP == words("GOOGLE_P"))
        for name in ["APPLE_PAY", "GOOGLE_PAY"] {
            let bytes = Array(name.utf8)
            #expect(Self.known(bytes) == name)
            for at in bytes.indices {
                var changed = bytes
                changed[at] ^= 0x20   // the same letter in lower case, `_` as DEL
                #expect(Self.known(changed) == nil, "\(name) changed at \(at)")
            }
            #expect(Self.known(bytes + [UInt8(ascii: "X")]) == nil && Self.known(Array(bytes.dropLast())) == nil)
        }
        #expect(Self.known(Array("SAMSUNG_PAY".utf8)) == nil && Self.known(Array("APPLE_PAX".utf8)) == nil)
    }

    @Test("an event's codes and wallet read as known texts give the request the full decoder gives")
    func requestsAgree() throws {
        // The last has a city beyond ASCII: the document is not plain, and its texts are all made and checked.
        for (state, country, wallet, city) in [("CA", "US", "APPLE_PAY", "Cupertino"), ("ON", "CA", "GOOGLE_PAY", "Cupertino"),
                                               ("NSW", "AU", "PAYPAL", "Cupertino"), ("ca", "US", "apple_pay", "Cupertino"),
                                               ("CA", "US", "APPLE_PAY", "Montréal")] {
            var text = String(decoding: ContractFixtures.exampleBytes, as: UTF8.self)
            text = text.replacingOccurrences(of: #""city": "Cupertino""#, with: "\"city\": \"\(city)\"")
            text = text.replacingOccurrences(of: #""APPLE_PAY""#, with: "\"\(wallet)\"")
            text = text.replacingOccurrences(of: #""state": "CA""#, with: "\"state\": \"\(state)\"")
            text = text.replacingOccurrences(of: #""country_code": "US""#, with: "\"country_code\": \"\(country)\"")
            let bytes = Array(text.utf8)
            let scanned = try #require(ScannedEvent(bytes, key: ContractFixtures.key), "\(wallet)")
            let decoded = try AddressChangeEvent.decode(bytes, key: ContractFixtures.key).get()
            let request = scanned.quoteRequest(now: decoded.occurredAt)
            #expect(request.paymentMethodType == wallet)
            #expect(request.address.state == state && request.address.countryCode == country && request.address.city == city)
            #expect(request == decoded.quoteRequest(now: decoded.occurredAt))
        }
    }
}
