import Foundation
import Kafka
import QuoteContract
import ShippingRules

/// The address-change events the bench produces, and how it recognises their replies.
///
/// Session ids are UUID-shaped (36 characters, as gateways make them, so the worker hashes and
/// stores what it would in production) and end in the session's number, which the reply reader
/// reads back from the `session-id` header without a lookup table.
enum BenchEvents {
    static let sessionPrefix = "b0000000-0000-4000-8000-"
    /// Sessions of the warm-up events, one a partition, sent before the clock starts.
    static let warmupPrefix = "w0000000-0000-4000-8000-"
    static let sessionDigits = 12

    static func sessionID(_ index: Int32, prefix: String = sessionPrefix) -> String {
        let digits = String(index)
        return prefix + String(repeating: "0", count: sessionDigits - digits.count) + digits
    }

    /// The session number at the end of a `session-id` header with this prefix, or nil.
    static func sessionIndex(_ header: [UInt8], prefix: String = sessionPrefix) -> Int? {
        guard header.count == prefix.utf8.count + sessionDigits, header.starts(with: prefix.utf8) else { return nil }
        return decimal(header[(header.count - sessionDigits)...])
    }

    /// A whole number written in ASCII digits (a `sequence` header, say); nil for anything else.
    static func decimal<C: Collection>(_ bytes: C) -> Int? where C.Element == UInt8 {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var n = 0
        for b in bytes {
            guard b >= 0x30, b <= 0x39 else { return nil }
            n = n * 10 + Int(b - 0x30)
        }
        return n
    }

    /// Mostly addresses the US rules serve, in and out of the tax districts, with a remote-area
    /// surcharge and one country the rules refuse, so every branch of a quote is exercised.
    static let addresses: [PartialAddress] = [
        PartialAddress(city: "Cupertino", state: "CA", postalCode: "95014", countryCode: "US"),
        PartialAddress(city: "San Francisco", state: "CA", postalCode: "94105", countryCode: "US"),
        PartialAddress(city: "New York", state: "NY", postalCode: "10001", countryCode: "US"),
        PartialAddress(city: "Austin", state: "TX", postalCode: "78701", countryCode: "US"),
        PartialAddress(city: "Anchorage", state: "AK", postalCode: "99501", countryCode: "US"),
        PartialAddress(city: "Honolulu", state: "HI", postalCode: "96813", countryCode: "US"),
        PartialAddress(city: "Seattle", state: "WA", postalCode: "98101", countryCode: "US"),
        PartialAddress(city: "Toronto", state: "ON", postalCode: "M5V", countryCode: "CA"),
    ]

    static let cart: Cart = {
        let usd = Currency.usd
        return Cart(items: [CartItem(id: "sku-1", label: "T-shirt", quantity: 2, unitAmount: Money(minorUnits: 2_500, currency: usd),
                                     taxCategory: "apparel", weightGrams: 300),
                            CartItem(id: "sku-2", label: "Mug", quantity: 1, unitAmount: Money(minorUnits: 1_200, currency: usd),
                                     taxCategory: nil, weightGrams: 450)],
                    discounts: [Discount(id: "promo", label: "Promo", amount: Money(minorUnits: -500, currency: usd))])
    }()

    /// One warm-up event for each of `partitions`, sent to it by number: the clock starts once every
    /// partition has answered, so that no phase measures a group's first fetch or a cold connection.
    /// A partition's warm-up sent again goes with the next `sequence`, so that it is not a duplicate.
    static func warmup(topic: String, partitions: some Sequence<Int>, sequence: Int64 = 1, merchant: String?) -> [KafkaOutgoingMessage] {
        partitions.map { p in
            let session = sessionID(Int32(p), prefix: warmupPrefix)
            let event = AddressChangeEvent(sessionID: session, sequence: sequence, merchant: merchant, paymentMethodType: "APPLE_PAY",
                                           trigger: sequence == 1 ? .sheetOpened : .addressChanged, currency: .usd,
                                           shippingAddress: addresses[0], cart: cart, occurredAt: Date())
            return KafkaOutgoingMessage(topic: topic, key: Array(session.utf8), value: event.encode(), partition: Int32(p))
        }
    }

    /// The JSON of one planned event, as a gateway would produce it.
    static func encode(_ planned: LoadPlan.Event, merchant: String?, occurredAt: Date) -> [UInt8] {
        event(planned, merchant: merchant, occurredAt: occurredAt).encode()
    }

    /// One planned event (`bench gateway` sends it through a gateway, with a deadline).
    static func event(_ planned: LoadPlan.Event, merchant: String?, occurredAt: Date, replyBy: Date? = nil,
                      prefix: String = sessionPrefix) -> AddressChangeEvent {
        let address = addresses[Int(planned.session &+ planned.sequence) % addresses.count]
        return AddressChangeEvent(eventID: nil, sessionID: sessionID(planned.session, prefix: prefix), sequence: Int64(planned.sequence),
                                  merchant: merchant, paymentMethodType: "APPLE_PAY",
                                  trigger: planned.sequence == 1 ? .sheetOpened : .addressChanged, currency: .usd,
                                  shippingAddress: address, cart: cart, occurredAt: occurredAt, replyBy: replyBy)
    }
}
