import Foundation
import Testing
@testable import QuoteContract
import ShippingRules

@Suite("Incoming events")
struct IncomingEventTests {
    @Test("an ordinary event is read with its session, sequence and times")
    func readsTheExample() throws {
        let incoming = try IncomingEvent.read(ContractFixtures.exampleBytes, key: ContractFixtures.key).get()
        let event = try ContractFixtures.decode(ContractFixtures.exampleBytes).get()
        #expect(incoming.sessionID == event.sessionID && incoming.sequence == event.sequence && incoming.eventID == event.eventID)
        #expect(incoming.occurredAt == event.occurredAt && incoming.replyBy == event.replyBy)
        #expect(incoming.event() == event)
    }

    @Test("an event the scanner passes on is read by the full decoder")
    func fallsBackToTheFullDecoder() throws {
        // An escaped name sends the event past the scanner.
        let bytes = Array(ContractFixtures.exampleEvent.replacingOccurrences(of: "\"APPLE_PAY\"", with: #""APPLE\u005fPAY""#).utf8)
        #expect(EventScannerTests.compare(bytes) == .passedOnAndRead)
        let incoming = try IncomingEvent.read(bytes, key: ContractFixtures.key).get()
        #expect(incoming.event() == (try AddressChangeEvent.decodeThoroughly(bytes, checkingKey: true, key: ContractFixtures.key).get()))
    }

    @Test("the key rule is checked")
    func checksTheKey() {
        for key in [nil, Array("another-session".utf8)] {
            guard case .failure(let rejection) = IncomingEvent.read(ContractFixtures.exampleBytes, key: key) else {
                Issue.record("accepted an event whose key is not its session"); continue
            }
            #expect(rejection.code == .keyMismatch)
        }
        #expect((try? AddressChangeEvent.decode(unkeyed: ContractFixtures.exampleBytes).get()) != nil)
    }
}
