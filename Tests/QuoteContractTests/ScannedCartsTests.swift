import Foundation
import Testing
@testable import QuoteContract
import ShippingRules

/// A session's cart, the same bytes in each of its events of a batch, is scanned once: the next
/// event takes the positions (and, in the same currency, the lines' verdict) of the one before.
/// What is read that way must still be exactly what the full decoder reads or refuses.
@Suite("Carts kept across a batch's events of a session")
struct ScannedCartsTests {
    /// The compact example with a field changed: the address, as a sheet's next event would.
    static func event(city: String = "Cupertino", sequence: Int = 7, currency: String = "USD") -> [UInt8] {
        var value = ContractFixtures.exampleValue
        value = value.replacing(PathStep.parse("shipping_address.city")[...], with: .string(city))
        value = value.replacing(PathStep.parse("sequence")[...], with: .number(String(sequence)))
        value = value.replacing(PathStep.parse("currency")[...], with: .string(currency))
        return JSONWriter.encode(value)
    }

    /// Reads `bytes` as the second record of session 0 of a batch, after `first`; what it read and how many carts it took.
    static func readAfter(_ first: [UInt8], _ bytes: [UInt8], firstKey: [UInt8] = ContractFixtures.key,
                          key: [UInt8] = ContractFixtures.key, sameSession: Bool = true) -> (ScannedEvent?, reused: Int) {
        var carts = ScannedCarts(recordsOfSession: sameSession ? [2] : [1, 1])
        _ = ScannedEvent(first, checkingKey: true, key: firstKey, session: 0, carts: &carts)
        let scanned = ScannedEvent(bytes, checkingKey: true, key: key, session: sameSession ? 0 : 1, carts: &carts)
        return (scanned, carts.reused)
    }

    @Test("a session's next event with the same cart takes it from the one before, and reads the same event")
    func reusesTheCart() throws {
        let (scanned, reused) = Self.readAfter(Self.event(), Self.event(city: "San Jose", sequence: 8))
        #expect(reused == 1)
        let expected = try AddressChangeEvent.decodeThoroughly(Self.event(city: "San Jose", sequence: 8), checkingKey: true,
                                                               key: ContractFixtures.key).get()
        #expect(try #require(scanned).event() == expected)
        #expect(try #require(scanned).quoteRequest(now: expected.occurredAt) == expected.quoteRequest(now: expected.occurredAt))
        #expect(expected.cart.items[0].unitAmount == Money(minorUnits: 2_500, currency: .usd))
        #expect(expected.shippingAddress.city == "San Jose")
    }

    @Test("a session's next event that the quick way gives up on after taking its cart is read again the general way, to the same event")
    func quickReadingGivesUpAfterTheCart() throws {
        let next = String(decoding: Self.event(city: "San Jose", sequence: 8), as: UTF8.self)
        for (original, other) in [(#""reply_by":"#, #""reply_by" :"#),
                                  (#""selected_shipping_method_id":"standard""#, #""selected_shipping_method_id" :"standard""#),
                                  (#""occurred_at":"#, #""occurred_at": "#)] {
            let text = next.replacingOccurrences(of: original, with: other)
            #expect(text != next, "\(other)")
            let (scanned, reused) = Self.readAfter(Self.event(), Array(text.utf8))
            #expect(reused == 1, "\(other)")
            let expected = try AddressChangeEvent.decodeThoroughly(Array(text.utf8), checkingKey: true, key: ContractFixtures.key).get()
            #expect(try #require(scanned).event() == expected, "\(other)")
            #expect(try #require(scanned).quoteRequest(now: expected.occurredAt) == expected.quoteRequest(now: expected.occurredAt))
        }
    }

    @Test("a changed cart is scanned anew")
    func changedCart() throws {
        let changed = JSONWriter.encode(try JSONReader().read(Self.event()).replacing(PathStep.parse("cart.items[0].quantity")[...],
                                                                                       with: .number("3")))
        let (scanned, reused) = Self.readAfter(Self.event(), changed)
        #expect(reused == 0)
        #expect(try #require(scanned).event().cart.items[0].quantity == 3)
    }

    @Test("another session's identical cart is not taken")
    func otherSession() {
        let other = "0b7a2f1c-1111-4c1a-9a55-3c2f1d7e8b10"
        let second = JSONWriter.encode(ContractFixtures.exampleValue.replacing(PathStep.parse("session_id")[...], with: .string(other)))
        let (scanned, reused) = Self.readAfter(Self.event(), second, key: Array(other.utf8), sameSession: false)
        #expect(reused == 0)
        #expect(scanned?.sessionID == other)
    }

    @Test("a session's last record keeps nothing, so a record after it scans its own cart")
    func lastRecordKeepsNothing() {
        var carts = ScannedCarts(recordsOfSession: [1])
        #expect(ScannedEvent(Self.event(), checkingKey: true, key: ContractFixtures.key, session: 0, carts: &carts) != nil)
        #expect(ScannedEvent(Self.event(sequence: 8), checkingKey: true, key: ContractFixtures.key, session: 0, carts: &carts) != nil)
        #expect(carts.reused == 0)
    }

    /// The raw positions the scanner takes for `bytes`, read as session 0's second record after `first`.
    static func rawAfter(_ first: [UInt8], _ bytes: [UInt8]) -> RawEvent? {
        var carts = ScannedCarts(recordsOfSession: [2])
        _ = ScannedEvent(first, checkingKey: true, key: ContractFixtures.key, session: 0, carts: &carts)
        return bytes.withUnsafeBufferPointer { input in
            var cursor = JSONTokenCursor(input)
            var raw = RawEvent()
            return raw.read(&cursor, session: 0, carts: &carts) ? raw : nil
        }
    }

    @Test("the same cart in another currency is taken, its lines checked again, and refused as the full decoder refuses it")
    func otherCurrency() throws {
        let euros = Self.event(sequence: 8, currency: "EUR")
        let raw = try #require(Self.rawAfter(Self.event(), euros))
        #expect(raw.reusedCart == Self.event())   // the positions are the first event's ...
        #expect(raw.linesHoldIn == .usd)          // ... whose lines held in dollars only
        #expect(Self.readAfter(Self.event(), euros).0 == nil)
        #expect(ContractFixtures.rejection(euros)?.field == "cart.items[0].unit_amount.currency")
    }

    @Test("a record whose key is not its session id is refused even when its cart is the session's")
    func keyMismatch() throws {
        let raw = try #require(Self.rawAfter(Self.event(), Self.event(sequence: 8)))
        #expect(raw.reusedCart != nil)
        let (scanned, reused) = Self.readAfter(Self.event(), Self.event(sequence: 8), key: Array("someone-else".utf8))
        #expect(scanned == nil)
        #expect(reused == 0)
        #expect(ContractFixtures.rejection(Self.event(sequence: 8), key: Array("someone-else".utf8))?.code == .keyMismatch)
    }

    /// Every byte of the second event replaced in turn, as `EventScannerTests` does for one event:
    /// read after the unchanged event of its session, the scanner and the full decoder still agree.
    @Test("one byte changed anywhere in a session's next event: read after the first, the readers agree on every variant")
    func singleByteMutationsAfterTheFirst() throws {
        let first = Self.event()
        let bytes = Self.event(city: "San Jose", sequence: 8)
        let replacements: [UInt8] = [0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x30, 0x31, 0x2D, 0x2E, 0x20, 0x00, 0x7F, 0xC2, 0x61, 0x6E]
        var scannedWithReuse = 0, refused = 0
        for index in bytes.indices {
            for replacement in replacements where replacement != bytes[index] {
                var variant = bytes
                variant[index] = replacement
                let (scanned, reused) = Self.readAfter(first, variant)
                let full = AddressChangeEvent.decodeThoroughly(variant, checkingKey: true, key: ContractFixtures.key)
                switch (scanned?.event(), full) {
                case (let event?, .success(let expected)):
                    if event != expected { Issue.record("byte \(index) → \(replacement): scanned \(event), full \(expected)") }
                    if reused == 1 { scannedWithReuse += 1 }
                case (let event?, .failure(let rejection)):
                    Issue.record("byte \(index) → \(replacement): scanned \(event), the full decoder refused it: \(rejection)")
                case (nil, .failure): refused += 1
                case (nil, .success): break   // passed on to the full decoder, which reads it
                }
            }
        }
        #expect(scannedWithReuse > 500)
        #expect(refused > 3_000)
    }

    /// The other way round: the first event of the session broken or bent one byte at a time,
    /// in turn; whatever it left behind, the unchanged next event is read as the full decoder reads it.
    @Test("one byte changed anywhere in a session's first event: its next event is still read as the full decoder reads it")
    func singleByteMutationsOfTheFirst() throws {
        let second = Self.event(city: "San Jose", sequence: 8)
        let expected = try AddressChangeEvent.decodeThoroughly(second, checkingKey: true, key: ContractFixtures.key).get()
        let first = Self.event()
        let replacements: [UInt8] = [0x22, 0x5C, 0x7D, 0x5D, 0x2C, 0x30, 0x39, 0x2E, 0x20, 0x7F, 0xC2, 0x61]
        var reusedAfterABentFirst = 0
        for index in first.indices {
            for replacement in replacements where replacement != first[index] {
                var variant = first
                variant[index] = replacement
                let (scanned, reused) = Self.readAfter(variant, second)
                guard let event = scanned?.event() else { Issue.record("byte \(index) → \(replacement): the next event was refused"); continue }
                if event != expected { Issue.record("byte \(index) → \(replacement): read \(event)") }
                reusedAfterABentFirst += reused
            }
        }
        #expect(reusedAfterABentFirst > 500)   // bent outside its cart, the first still leaves its cart behind
    }

    @Test("after a first event with non-ASCII text, the next one takes its cart and reads the same")
    func afterANonASCIIFirst() throws {
        let (scanned, reused) = Self.readAfter(Self.event(city: "Zürich"), Self.event(city: "San Jose", sequence: 8))
        #expect(reused == 1)
        let expected = try AddressChangeEvent.decodeThoroughly(Self.event(city: "San Jose", sequence: 8), checkingKey: true,
                                                               key: ContractFixtures.key).get()
        #expect(try #require(scanned).event() == expected)
    }
}
