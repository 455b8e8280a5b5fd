import Testing
import QuoteContract

@Suite("Session state records")
struct SessionStateTests {
    @Test("writes the state topic's value byte for byte")
    func exactBytes() {
        let state = SessionState(sequence: 7, sourceOffset: 1234, lastSeenMs: 1_760_097_600_123)
        #expect(String(decoding: state.encode(), as: UTF8.self) == #"{"sequence":7,"offset":1234,"seen_ms":1760097600123}"#)
        let extremes = SessionState(sequence: Int64.max, sourceOffset: 0, lastSeenMs: -1)
        #expect(String(decoding: extremes.encode(), as: UTF8.self) == #"{"sequence":9223372036854775807,"offset":0,"seen_ms":-1}"#)
        // The longest value there is: every integer at its widest (a sign and 19 digits), 94 bytes.
        let widest = SessionState(sequence: Int64.min, sourceOffset: Int64.min, lastSeenMs: Int64.min)
        let bytes = widest.encode()
        #expect(String(decoding: bytes, as: UTF8.self)
            == #"{"sequence":-9223372036854775808,"offset":-9223372036854775808,"seen_ms":-9223372036854775808}"#)
        #expect(bytes.count == 94)
        #expect(SessionState.decode(bytes) == widest)
    }

    @Test("reads back what it writes")
    func roundTrip() {
        for state in [SessionState(sequence: 7, sourceOffset: 1234, lastSeenMs: 1_760_097_600_123),
                      SessionState(sequence: 1, sourceOffset: 0, lastSeenMs: 0)] {
            #expect(SessionState.decode(state.encode()) == state)
        }
    }

    @Test("reads members in any order and ignores others")
    func tolerantOrder() {
        let text = #"{"seen_ms":3,"extra":"x","offset":2,"sequence":1}"#
        #expect(SessionState.decode(Array(text.utf8)) == SessionState(sequence: 1, sourceOffset: 2, lastSeenMs: 3))
    }

    @Test("a value it cannot read is nil", arguments: [
        #"{"offset":1234,"seen_ms":1760097600123}"#,                  // sequence missing
        #"{"sequence":7,"seen_ms":1760097600123}"#,                   // offset missing
        #"{"sequence":7,"offset":1234}"#,                             // seen_ms missing
        #"{"sequence":7.5,"offset":1234,"seen_ms":1760097600123}"#,   // not an integer
        #"{"sequence":7,"offset":1e3,"seen_ms":1760097600123}"#,      // an exponent
        #"{"sequence":"7","offset":1234,"seen_ms":1760097600123}"#,   // a string
        #"{"sequence":7,"offset":1234,"seen_ms":99999999999999999999}"#, // beyond Int64
        #"{"sequence":null,"offset":1234,"seen_ms":1760097600123}"#,
        #"[7,1234,1760097600123]"#,                                   // not an object
        "sequence=7",                                                 // not JSON
        #"{"sequence":7,"offset":1234,"seen_ms":1760097600123"#,     // cut short
        "",
    ])
    func refusesBadValues(text: String) {
        #expect(SessionState.decode(Array(text.utf8)) == nil)
    }
}
