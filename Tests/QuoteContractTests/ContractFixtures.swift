import Foundation
@testable import QuoteContract
import ShippingRules

/// The address-change event of docs/contract.md, verbatim, and ways to bend it one rule at a time.
enum ContractFixtures {
    static let sessionID = "9a0c6f0e-4b1e-4c1a-9a55-3c2f1d7e8b10"
    static var key: [UInt8] { Array(sessionID.utf8) }

    static let exampleEvent = """
    {
      "version": 1,
      "event_id": "01JB3Y3T2J7Q9V6K0M8F4R2D1C",
      "session_id": "9a0c6f0e-4b1e-4c1a-9a55-3c2f1d7e8b10",
      "sequence": 7,
      "merchant": "acme",
      "payment_method_type": "APPLE_PAY",
      "trigger": "address_changed",
      "currency": "USD",
      "shipping_address": { "city": "Cupertino", "state": "CA", "postal_code": "95014", "country_code": "US" },
      "cart": {
        "items": [
          { "id": "sku-1", "label": "T-shirt", "quantity": 2,
            "unit_amount": { "currency": "USD", "value": 25.00 },
            "tax_category": "apparel", "weight_grams": 300 }
        ],
        "discounts": [ { "id": "promo", "label": "Promo", "amount": { "currency": "USD", "value": -5.00 } } ]
      },
      "selected_shipping_method_id": "standard",
      "occurred_at": "2026-10-10T12:00:00.123Z",
      "reply_by": "2026-10-10T12:00:25Z"
    }
    """

    static var exampleBytes: [UInt8] { Array(exampleEvent.utf8) }

    static var exampleValue: JSONValue { try! JSONReader().read(exampleEvent) }

    /// The example with the member at `path` (`cart.items[0].quantity`) set to `value`, or removed when nil.
    static func example(setting path: String, to value: JSONValue?) -> [UInt8] {
        JSONWriter.encode(exampleValue.replacing(PathStep.parse(path)[...], with: value))
    }

    /// Decodes with the example's key.
    static func decode(_ bytes: [UInt8]) -> Result<AddressChangeEvent, EventRejection> {
        AddressChangeEvent.decode(bytes, key: key)
    }

    static func rejection(_ bytes: [UInt8], key: [UInt8]? = ContractFixtures.key) -> EventRejection? {
        if case .failure(let rejection) = AddressChangeEvent.decode(bytes, key: key) { return rejection }
        return nil
    }

    static func date(_ text: String) -> Date { RFC3339.parse(text)! }
}

enum PathStep {
    case key(String)
    case index(Int)

    static func parse(_ path: String) -> [PathStep] {
        var steps: [PathStep] = []
        for part in path.split(separator: ".") {
            var name = Substring(part)
            var indexes: [Int] = []
            while name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
                indexes.insert(Int(name[name.index(after: open)..<name.index(before: name.endIndex)])!, at: 0)
                name = name[..<open]
            }
            if !name.isEmpty { steps.append(.key(String(name))) }
            steps.append(contentsOf: indexes.map(PathStep.index))
        }
        return steps
    }
}

extension JSONValue {
    func replacing(_ path: ArraySlice<PathStep>, with value: JSONValue?) -> JSONValue {
        guard let step = path.first else { return value ?? .null }
        switch (self, step) {
        case (.object(var object), .key(let key)):
            if path.count == 1 {
                object[key] = value
            } else {
                object[key] = (object[key] ?? .object(JSONObject())).replacing(path.dropFirst(), with: value)
            }
            return .object(object)
        case (.array(var elements), .index(let index)):
            if path.count == 1, value == nil {
                elements.remove(at: index)
            } else {
                elements[index] = elements[index].replacing(path.dropFirst(), with: value)
            }
            return .array(elements)
        default:
            fatalError("path does not fit the document")
        }
    }
}

extension String {
    var bytes: [UInt8] { Array(utf8) }
}

/// An amount member as the contract writes it.
func amount(_ currency: String, _ value: JSONValue) -> JSONValue {
    .object(JSONObject(["currency": .string(currency), "value": value]))
}
