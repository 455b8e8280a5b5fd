import Benchmarking

/// The events of one run, decided before it starts so that every phase (echo and ShipQuote)
/// gets the very same load: which session sends, and with which sequence.
///
/// Sessions take turns at random; a `burstFraction` of turns send 2 or 3 addresses back to back
/// (the customer flicking through saved addresses), so that earlier answers become stale.
struct LoadPlan {
    struct Event {
        let session: Int32
        let sequence: Int32
    }

    let sessions: Int
    let events: [Event]

    init(sessions: Int, events count: Int, burstFraction: Double, seed: UInt64 = 0x5EED) {
        var random = SplitMix64(seed: seed)
        var next = [Int32](repeating: 1, count: sessions)
        var events: [Event] = []
        events.reserveCapacity(count)
        while events.count < count {
            let session = Int(random.next() % UInt64(sessions))
            let burst = random.unit() < burstFraction ? 2 + Int(random.next() % 2) : 1
            for _ in 0..<min(burst, count - events.count) {
                events.append(Event(session: Int32(session), sequence: next[session]))
                next[session] += 1
            }
        }
        self.sessions = sessions
        self.events = events
    }

    /// A plan of these very events (a test's, say).
    init(sessions: Int, events: [Event]) {
        self.sessions = sessions
        self.events = events
    }

    /// Turns that sent more than one address (for the report).
    var burstTurns: Int {
        var n = 0
        for i in 1..<max(events.count, 1) where events[i].session == events[i - 1].session && events[i].sequence == events[i - 1].sequence + 1 {
            if i < 2 || !(events[i - 1].session == events[i - 2].session && events[i - 1].sequence == events[i - 2].sequence + 1) { n += 1 }
        }
        return n
    }
}
