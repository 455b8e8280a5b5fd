import Foundation
import Testing
@testable import QuoteContract

/// One broken rule of the contract's event table: the example event with one member changed.
struct BrokenRule: Sendable, CustomTestStringConvertible {
    let path: String
    let value: JSONValue?
    let code: RejectionCode
    let field: String?
    /// A recognisable piece of the offending value that must never show in the rejection.
    let secret: String?

    init(_ path: String, _ value: JSONValue?, _ code: RejectionCode, field: String? = nil, secret: String? = nil) {
        self.path = path
        self.value = value
        self.code = code
        self.field = field ?? path
        self.secret = secret
    }

    var testDescription: String {
        let change = value.map { String(decoding: JSONWriter.encode($0), as: UTF8.self) } ?? "removed"
        return "\(path) = \(change.prefix(40)) → \(code.rawValue)"
    }
}

@Suite("Event rejections")
struct EventRejectionTests {
    static let manyItems = JSONValue.array(Array(repeating: .object(JSONObject([
        "id": .string("sku"), "label": .string("Sock"), "quantity": .number("1"), "unit_amount": amount("USD", .string("1.00")),
    ])), count: 101))
    static let manyDiscounts = JSONValue.array(Array(repeating: .object(JSONObject([
        "id": .string("d"), "label": .string("D"), "amount": amount("USD", .string("-0.01")),
    ])), count: 101))
    static let secretText = JSONValue.string("Zanzibar-4471")

    static let brokenRules: [BrokenRule] = [
        // version
        BrokenRule("version", nil, .missingField),
        BrokenRule("version", .number("2"), .unsupportedVersion),
        BrokenRule("version", .number("0"), .unsupportedVersion),
        BrokenRule("version", .string("1"), .invalidField),
        BrokenRule("version", .number("1.0"), .invalidField),
        // session_id
        BrokenRule("session_id", nil, .missingField),
        BrokenRule("session_id", .null, .missingField),
        BrokenRule("session_id", .string(""), .invalidField),
        BrokenRule("session_id", .string(String(repeating: "s", count: 129)), .invalidField),
        BrokenRule("session_id", .number("4471"), .invalidField, secret: "4471"),
        BrokenRule("session_id", .string("ses\u{7}sion-4471"), .invalidField, secret: "4471"),
        // sequence
        BrokenRule("sequence", nil, .missingField),
        BrokenRule("sequence", .number("0"), .invalidField),
        BrokenRule("sequence", .number("-4471"), .invalidField, secret: "4471"),
        BrokenRule("sequence", .number("7.5"), .invalidField, secret: "7.5"),
        BrokenRule("sequence", .number("7.0"), .invalidField),
        BrokenRule("sequence", .number("7e0"), .invalidField, secret: "7e0"),
        BrokenRule("sequence", .string("7"), .invalidField),
        BrokenRule("sequence", .number("1e400"), .invalidField, secret: "1e400"),
        BrokenRule("sequence", .number("99999999999999999999"), .overLimit, secret: "99999999999999999999"),
        // event_id, merchant, selected method
        BrokenRule("event_id", .number("4471"), .invalidField, secret: "4471"),
        BrokenRule("event_id", .string(""), .invalidField),
        BrokenRule("event_id", .string(String(repeating: "e", count: 129)), .invalidField),
        BrokenRule("merchant", .string(""), .invalidField),
        BrokenRule("merchant", .bool(true), .invalidField),
        BrokenRule("selected_shipping_method_id", .number("4471"), .invalidField, secret: "4471"),
        BrokenRule("selected_shipping_method_id", .string("std\u{0}4471"), .invalidField, secret: "4471"),
        // payment method, trigger
        BrokenRule("payment_method_type", nil, .missingField),
        BrokenRule("payment_method_type", .string(""), .invalidField),
        BrokenRule("payment_method_type", .number("4471"), .invalidField, secret: "4471"),
        BrokenRule("trigger", nil, .missingField),
        BrokenRule("trigger", .string("Zanzibar-4471"), .unsupportedTrigger, secret: "Zanzibar"),
        BrokenRule("trigger", .string("ADDRESS_CHANGED"), .unsupportedTrigger, secret: "ADDRESS"),
        BrokenRule("trigger", .number("4471"), .invalidField, secret: "4471"),
        // currency
        BrokenRule("currency", nil, .missingField),
        BrokenRule("currency", .string("XYZ"), .invalidField, secret: "XYZ"),
        BrokenRule("currency", .string("usd"), .invalidField, secret: "usd"),
        BrokenRule("currency", .number("840"), .invalidField, secret: "840"),
        BrokenRule("cart.items[0].unit_amount.currency", .string("EUR"), .currencyMismatch, secret: "EUR"),
        BrokenRule("cart.discounts[0].amount.currency", .string("GBP"), .currencyMismatch, secret: "GBP"),
        BrokenRule("cart.subtotal", amount("JPY", .number("50")), .currencyMismatch, field: "cart.subtotal.currency", secret: "JPY"),
        // shipping address
        BrokenRule("shipping_address", nil, .missingField),
        BrokenRule("shipping_address", secretText, .invalidField, secret: "Zanzibar"),
        BrokenRule("shipping_address.city", .number("4471"), .invalidField, secret: "4471"),
        BrokenRule("shipping_address.state", .array([secretText]), .invalidField, secret: "Zanzibar"),
        BrokenRule("shipping_address.postal_code", .number("94471"), .invalidField, secret: "4471"),
        BrokenRule("shipping_address.country_code", .string("zz"), .invalidField, secret: "zz"),
        BrokenRule("shipping_address.country_code", .string("USA"), .invalidField, secret: "USA"),
        BrokenRule("shipping_address.country_code", .string("Ü1"), .invalidField, secret: "Ü1"),
        // cart
        BrokenRule("cart", nil, .missingField),
        BrokenRule("cart", .array([]), .invalidField),
        BrokenRule("cart.items", .object(JSONObject()), .invalidField),
        BrokenRule("cart.items", manyItems, .overLimit),
        BrokenRule("cart.items[0]", secretText, .invalidField, secret: "Zanzibar"),
        BrokenRule("cart.items[0].id", nil, .missingField),
        BrokenRule("cart.items[0].id", .string(""), .invalidField),
        BrokenRule("cart.items[0].label", nil, .missingField),
        BrokenRule("cart.items[0].label", .string("Zanzibar\u{1b}[31m"), .invalidField, secret: "Zanzibar"),
        BrokenRule("cart.items[0].label", .string("Zanzibar\u{85}"), .invalidField, secret: "Zanzibar"),
        BrokenRule("cart.items[0].quantity", nil, .missingField),
        BrokenRule("cart.items[0].quantity", .number("0"), .invalidField),
        BrokenRule("cart.items[0].quantity", .number("-4471"), .invalidField, secret: "4471"),
        BrokenRule("cart.items[0].quantity", .number("2.5"), .invalidField, secret: "2.5"),
        BrokenRule("cart.items[0].quantity", .string("2"), .invalidField),
        BrokenRule("cart.items[0].quantity", .number("4471000"), .overLimit, secret: "4471"),
        BrokenRule("cart.items[0].unit_amount", nil, .missingField),
        BrokenRule("cart.items[0].unit_amount", .number("25"), .invalidField),
        BrokenRule("cart.items[0].unit_amount.currency", nil, .missingField),
        BrokenRule("cart.items[0].unit_amount.value", nil, .missingField),
        BrokenRule("cart.items[0].unit_amount.value", .number("100.005"), .invalidField, secret: "100.005"),
        BrokenRule("cart.items[0].unit_amount.value", .string("100.005"), .invalidField, secret: "100.005"),
        BrokenRule("cart.items[0].unit_amount.value", .number("0.123456789012345678901234567890"), .invalidField,
                   secret: "123456789"),
        BrokenRule("cart.items[0].unit_amount.value", .number("1e400"), .invalidField, secret: "1e400"),
        BrokenRule("cart.items[0].unit_amount.value", .string("Zanzibar"), .invalidField, secret: "Zanzibar"),
        BrokenRule("cart.items[0].unit_amount.value", .string(" 25.00"), .invalidField, secret: "25.00"),
        BrokenRule("cart.items[0].unit_amount.value", .string("0." + String(repeating: "0", count: 200_000) + "1"), .invalidField),
        BrokenRule("cart.items[0].unit_amount.value", .bool(true), .invalidField),
        BrokenRule("cart.items[0].unit_amount.value", .number("-4471"), .invalidField, field: "cart.items[0].unit_amount", secret: "4471"),
        BrokenRule("cart.items[0].unit_amount.value", .number("44710000000000"), .overLimit, secret: "4471"),
        BrokenRule("cart.items[0].tax_category", .number("4471"), .invalidField, secret: "4471"),
        BrokenRule("cart.items[0].weight_grams", .number("-4471"), .invalidField, secret: "4471"),
        BrokenRule("cart.items[0].weight_grams", .number("300.5"), .invalidField, secret: "300.5"),
        BrokenRule("cart.items[0].weight_grams", .string("300"), .invalidField),
        BrokenRule("cart.items[0].weight_grams", .number("4471000000"), .overLimit, secret: "4471"),
        BrokenRule("cart.items[0].shipping_class", .number("4471"), .invalidField, secret: "4471"),
        BrokenRule("cart.items[0].shipping_class", .string(""), .invalidField),
        BrokenRule("cart.items[0].shipping_class", .string("battery-" + String(repeating: "x", count: 57)), .invalidField, secret: "battery"),
        BrokenRule("cart.items[0].shipping_class", .string("batt\u{7}ery-4471"), .invalidField, secret: "4471"),
        BrokenRule("cart.items[0].dimensions_mm", .string("600x400x4471"), .invalidField, secret: "4471"),
        BrokenRule("cart.items[0].dimensions_mm", .array([.number("600")]), .invalidField),
        BrokenRule("cart.items[0].dimensions_mm", size(600, 400, "-4471"), .invalidField,
                   field: "cart.items[0].dimensions_mm.height", secret: "4471"),
        BrokenRule("cart.items[0].dimensions_mm", size("-1", 400, 400), .invalidField, field: "cart.items[0].dimensions_mm.length"),
        BrokenRule("cart.items[0].dimensions_mm", size(600, "400.5", 400), .invalidField,
                   field: "cart.items[0].dimensions_mm.width", secret: "400.5"),
        BrokenRule("cart.items[0].dimensions_mm", size(600, 400, "100001"), .overLimit,
                   field: "cart.items[0].dimensions_mm.height", secret: "100001"),
        BrokenRule("cart.items[0].dimensions_mm", size(600, "44710000000000000000", 400), .overLimit,
                   field: "cart.items[0].dimensions_mm.width", secret: "4471"),
        BrokenRule("cart.items[0].dimensions_mm", .object(JSONObject(["length": .number("600"), "height": .number("400")])),
                   .missingField, field: "cart.items[0].dimensions_mm.width"),
        BrokenRule("cart.items[0].dimensions_mm", .object(JSONObject(["length": .number("600"), "width": .string("400"), "height": .number("400")])),
                   .invalidField, field: "cart.items[0].dimensions_mm.width"),
        BrokenRule("cart.discounts", .string("promo"), .invalidField),
        BrokenRule("cart.discounts", manyDiscounts, .overLimit),
        BrokenRule("cart.discounts[0].id", nil, .missingField),
        BrokenRule("cart.discounts[0].label", .string("Promo\n4471"), .invalidField, secret: "4471"),
        BrokenRule("cart.discounts[0].amount", nil, .missingField),
        BrokenRule("cart.discounts[0].amount.value", .number("44.71"), .invalidField, field: "cart.discounts[0].amount", secret: "44.71"),
        BrokenRule("cart.discounts[0].amount.value", .number("-5.001"), .invalidField, secret: "5.001"),
        BrokenRule("cart.subtotal", amount("USD", .string("44.71")), .invalidField, secret: "44.71"),
        BrokenRule("cart.subtotal", amount("USD", .string("-44.71")), .invalidField, secret: "44.71"),
        // times
        BrokenRule("occurred_at", nil, .missingField),
        BrokenRule("occurred_at", .string("yesterday-4471"), .invalidField, secret: "4471"),
        BrokenRule("occurred_at", .string("1999-12-31 23:59:59Z"), .invalidField, secret: "1999"),
        BrokenRule("occurred_at", .number("1791633600"), .invalidField, secret: "1791633600"),
        BrokenRule("reply_by", .string("1999-02-30T12:00:25Z"), .invalidField, secret: "1999"),
        BrokenRule("reply_by", .string("1999-12-31T23:59:59"), .invalidField, secret: "1999"),
    ]

    @Test("every rule of the event table is checked, naming code and field", arguments: brokenRules)
    func rejectsBrokenRule(_ rule: BrokenRule) throws {
        let bytes = ContractFixtures.example(setting: rule.path, to: rule.value)
        let key = rule.path == "session_id" ? sessionKey(of: rule) : ContractFixtures.key
        let rejection = try #require(ContractFixtures.rejection(bytes, key: key))
        #expect(rejection.code == rule.code)
        #expect(rejection.field == rule.field)
        #expect(rejection.message.hasPrefix(rule.field ?? ""))
        if let secret = rule.secret {
            #expect(!rejection.message.contains(secret), "the message repeats the value")
            #expect(!rejection.description.contains(secret), "the description repeats the value")
        }
        // Session and sequence travel along whenever they are themselves valid.
        #expect(rejection.sessionID == (rule.path == "session_id" ? nil : ContractFixtures.sessionID))
        #expect(rejection.sequence == (rule.path == "sequence" ? nil : 7))
    }

    /// For session_id rules the key follows the broken value when it is a string, so that the
    /// session rule itself, not the key rule, is what fails.
    private func sessionKey(of rule: BrokenRule) -> [UInt8]? {
        if case .string(let text)? = rule.value { return Array(text.utf8) }
        return ContractFixtures.key
    }

    @Test("session_id must equal the message key")
    func keyMismatch() throws {
        let rejection = try #require(ContractFixtures.rejection(ContractFixtures.exampleBytes, key: "another-session".bytes))
        #expect(rejection.code == .keyMismatch)
        #expect(rejection.field == "session_id")
        #expect(rejection.message == "session_id must equal the message key")
        #expect(!rejection.message.contains("another") && !rejection.message.contains("9a0c6f0e"))
        #expect(rejection.sessionID == ContractFixtures.sessionID && rejection.sequence == 7)
    }

    @Test("a record without a key breaks the key rule")
    func missingKey() throws {
        let rejection = try #require(ContractFixtures.rejection(ContractFixtures.exampleBytes, key: nil))
        #expect(rejection.code == .keyMismatch && rejection.field == "session_id")
    }

    @Test("an unsupported version still yields a readable session and sequence")
    func unsupportedVersionIsAnswerable() throws {
        let rejection = try #require(ContractFixtures.rejection(ContractFixtures.example(setting: "version", to: .number("2"))))
        #expect(rejection.code == .unsupportedVersion)
        #expect(rejection.isAnswerable)
        #expect(rejection.description == "unsupported_version: version must be 1")
    }

    @Test("an invalid sequence leaves the rejection unanswerable")
    func invalidSequenceIsNotAnswerable() throws {
        let rejection = try #require(ContractFixtures.rejection(ContractFixtures.example(setting: "sequence", to: .number("0"))))
        #expect(rejection.sessionID == ContractFixtures.sessionID)
        #expect(rejection.sequence == nil)
        #expect(!rejection.isAnswerable)
        #expect(QuoteReply(rejecting: rejection, computedAt: Date()) == nil)
    }

    @Test("a subtotal that is not the items' sum names the rule")
    func subtotalMismatchMessage() throws {
        let rejection = try #require(ContractFixtures.rejection(
            ContractFixtures.example(setting: "cart.subtotal", to: amount("USD", .number("49.99")))))
        #expect(rejection.message == "cart.subtotal must equal the sum of quantity × unit_amount over the items")
    }

    struct UnreadableCase: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let code: RejectionCode
        var testDescription: String { name }
    }

    static let unreadable: [UnreadableCase] = {
        let example = ContractFixtures.exampleBytes
        let label = Array("T-shirt".utf8)
        let labelStart = example.indices.first { Array(example[$0..<($0 + label.count)]) == label }!
        var badUTF8 = example
        badUTF8[labelStart] = 0xC0
        var rawControl = example
        rawControl[labelStart] = 0x09
        let duplicate = Array(ContractFixtures.exampleEvent.replacingOccurrences(
            of: "\"merchant\": \"acme\",", with: "\"merchant\": \"acme\", \"merchant\": \"evil\",").utf8)
        let deep = Array("{\"version\":1,\"session_id\":\"s\",\"sequence\":1,\"x\":".utf8)
            + [UInt8](repeating: UInt8(ascii: "["), count: 10_000)
        let huge = Array("{\"session_id\":\"9a0c6f0e-4b1e-4c1a-9a55-3c2f1d7e8b10\",\"sequence\":7,\"pad\":\"".utf8)
        return [
            UnreadableCase(name: "not JSON", bytes: Array("shipping please".utf8), code: .notJSON),
            UnreadableCase(name: "empty value", bytes: [], code: .notJSON),
            UnreadableCase(name: "truncated JSON", bytes: Array(example.prefix(example.count / 2)), code: .notJSON),
            UnreadableCase(name: "invalid UTF-8 in a label", bytes: badUTF8, code: .notJSON),
            UnreadableCase(name: "raw control character in a label", bytes: rawControl, code: .notJSON),
            UnreadableCase(name: "duplicate key", bytes: duplicate, code: .notJSON),
            UnreadableCase(name: "NaN amount", bytes: Array(ContractFixtures.exampleEvent.replacingOccurrences(
                of: "25.00", with: "NaN").utf8), code: .notJSON),
            UnreadableCase(name: "10,000 nested arrays", bytes: deep, code: .tooDeep),
            UnreadableCase(name: "1 MiB + 1 byte", bytes: huge + [UInt8](repeating: 0x61, count: 1_048_577 - huge.count - 2)
                + Array("\"}".utf8), code: .tooLarge),
            UnreadableCase(name: "a JSON array", bytes: Array("[1]".utf8), code: .invalidField),
            UnreadableCase(name: "a JSON string", bytes: Array("\"event\"".utf8), code: .invalidField),
        ]
    }()

    @Test("unreadable events are refused without session or sequence", arguments: unreadable)
    func rejectsUnreadable(_ bad: UnreadableCase) throws {
        let rejection = try #require(ContractFixtures.rejection(bad.bytes))
        #expect(rejection.code == bad.code)
        #expect(rejection.field == nil)
        #expect(rejection.sessionID == nil && rejection.sequence == nil)
        #expect(!rejection.message.contains("evil") && !rejection.message.contains("T-shirt"))
    }

    @Test("1 MiB + 1 is refused fast, before parsing")
    func oversizeIsRefusedBeforeParsing() throws {
        // Deep nesting that would take the parser time; the size check must come first.
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 1_048_577)
        let start = ContinuousClock.now
        let rejection = try #require(ContractFixtures.rejection(bytes))
        #expect(rejection.code == .tooLarge)
        #expect(rejection.message == "the event is larger than 1048576 bytes")
        #expect(ContinuousClock.now - start < .milliseconds(100))
    }

    @Test("every rejection code has its wire name")
    func rejectionCodeNames() {
        #expect(RejectionCode.allCases.map(\.rawValue) == [
            "not_json", "too_large", "too_deep", "unsupported_version", "key_mismatch", "missing_field",
            "invalid_field", "unsupported_trigger", "currency_mismatch", "over_limit",
        ])
    }
}

/// A `dimensions_mm` member; each side a JSON number literal.
func size(_ length: any CustomStringConvertible, _ width: any CustomStringConvertible, _ height: any CustomStringConvertible) -> JSONValue {
    .object(JSONObject(["length": .number(length.description), "width": .number(width.description), "height": .number(height.description)]))
}
