import Testing
@testable import ShippingRules

@Suite("rules explain output")
struct ExplainReportTests {
    @Test func theSameInputGivesTheSameBytesAndNamesEachStep() {
        let request = Fixture.request(at: "2026-10-12T17:00:00Z")
        let text = ExplainReport.text(rules: Fixture.acme, request: request)
        #expect(text == ExplainReport.text(rules: Fixture.acme, request: request))
        for expected in ["outcome  update", "now=2026-10-12T17:00:00Z", "method standard: zone us-50 holds the address",
                         "tier 1 (weight_grams 600 ≤ 1000)", "tax ca 7.25% + santa-clara 1.5%, half_up per line → 3.94",
                         "  total     ACME Inc.  53.94", "method   same-day \"Same-day delivery\" 15.00 2026-10-12..2026-10-12"] {
            #expect(text.contains(expected), "missing: \(expected)")
        }
    }

    @Test func anUnserviceableAnswerShowsTheRuleThatRefused() {
        let text = ExplainReport.text(rules: Fixture.acme, request: Fixture.request(address: AddressShorthand.parse("CA/ON/M5V")))
        #expect(text.contains("outcome  unserviceable\n  error  COUNTRY_NOT_SUPPORTED: We ship to the United States only."))
        #expect(text.contains("serviceability[0] applies: COUNTRY_NOT_SUPPORTED"))
    }
}
