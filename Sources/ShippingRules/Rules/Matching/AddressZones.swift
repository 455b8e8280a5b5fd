/// Which zones hold a quote's address: the zone index's answer where it gave one, else each zone
/// asked in turn (a traced quote asks that way, to say why a zone does not hold).
///
/// A value the pricing borrows. It was a closure capturing the address, and every method priced
/// copied the captured address (a retain and release of each of its texts) twice.
///
/// It holds the address only where there is no answer to read (a traced quote): copying it in
/// was a retain and a release of each of its texts on every quote.
struct AddressZones {
    private let matched: ZoneSet?
    private let address: ResolvedAddress?

    init(matched: ZoneSet?, address: ResolvedAddress) {
        self.matched = matched
        self.address = matched == nil ? address : nil
    }

    /// Whether the zone numbered `number` holds the address, read from the index's answer; nil
    /// where there is none, and `hold` asks the zone. Callers ask this of a zone's number where it
    /// lies: `hold` takes the zone, and a rule's zone handed over was copied whole (a retain and a
    /// release of each of its texts, sets and lists) on every ask.
    @inline(__always)
    func holds(number: Int) -> Bool? { matched.map { $0.contains(number) } }

    func hold(_ zone: Zone) -> Bool {
        if let matched { return matched.contains(zone.number) }
        // Held whenever `matched` is not: a trap, not a guess, if that ever broke.
        return zone.contains(address!)
    }
}
