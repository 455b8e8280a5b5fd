import Foundation
import Testing

@Suite struct DemoTests {
    @Test func theDemoRunsToTheEndAndShowsAStaleDropAnUnserviceableAddressAndADeadLetter() throws {
        let result = try Binary.run(["demo"], timeout: 120)
        #expect(result.status == 0, "demo failed: \(result.stderr)")
        let out = result.stdout
        #expect(out.contains("◀ seq 3  dropped as stale"))
        #expect(out.contains("◀ seq 5  unserviceable"))
        #expect(out.contains("COUNTRY_NOT_SUPPORTED"))
        #expect(out.contains("◀ seq 6  rejected — invalid_field: cart.items[0].unit_amount.value"))
        #expect(out.contains("error-code: invalid_field"))
        #expect(out.contains("◀ seq 7  update"))
        #expect(out.contains("Worker counters: 7 events in"))
        #expect(out.hasSuffix("Demo finished.\n"))
    }
}
