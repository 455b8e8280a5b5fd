/// Every zone a rule set uses, numbered once and filed by country, then state, then the first
/// characters of its postal patterns. A quote looks up only the zones that could hold its address
/// and checks those in full, so its cost does not grow with zones of other countries, states or
/// postal areas. Matching is `Zone.contains`, unchanged: the index only skips zones that cannot match.
struct ZoneIndex: Sendable {
    /// Postal stems are filed by at most this many leading characters.
    static let stemKeyLength = 3

    private(set) var zones: [Zone] = []
    /// The same zones, each behind one reference: matching reads a zone where it lies, where an
    /// element of `zones` is copied (a retain of each of its members) for every `contains`.
    private var matchers: [ZoneMatcher] = []
    private var numberByID: [String: Int] = [:]
    private var anyCountry = StateLevel()
    private var byCountry: [String: StateLevel] = [:]

    /// Zones of one country (or of any country), by state.
    private struct StateLevel: Sendable {
        var anyState = PostalLevel()
        var byState: [String: PostalLevel] = [:]

    mutating func file(_ zone: Zone) {
        if let states = zone.states {
            for state in states.sorted() { byState[state, default: .init()].file(zone, number: zone.number) }
        } else {
            anyState.file(zone, number: zone.number)
        }
    }

    func candidates(_ address: ResolvedAddress, into set: inout ZoneSet, zones: [ZoneMatcher]) {
        anyState.candidates(address.postalCode, into: &set, zones: zones, address: address)
        if let state = address.state, let level = byState[state] {
            level.candidates(address.postalCode, into: &set, zones: zones, address: address)
        }
    }
    }

    /// Zones of one state (or of any state), by postal stem.
    private struct PostalLevel: Sendable {
        /// Zones without postal patterns, or with a pattern no stem describes (a regex).
        var always: [Int] = []
        /// Zones that hold only codes starting with the key (1 to `stemKeyLength` characters).
        var byStem: [String: [Int]] = [:]
        /// The same lists by `CodeList.word` of the key, for the keys of printable ASCII (nearly
        /// all): an ASCII code's prefix is then packed from its bytes, where `String(code.prefix(n))`
        /// walked Characters and made a string for every length.
        var byWord: [UInt64: [Int]] = [:]
        /// The key lengths present, so a lookup tries only those.
        var stemLengths: [Int] = []

        static func isPrintableASCII(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7f }

        mutating func file(_ zone: Zone, number: Int) {
            guard let patterns = zone.postalCodes else { always.append(number); return }
            var keys: Set<String> = []
            for pattern in patterns {
                guard let stem = pattern.leadingStem, !stem.isEmpty else { always.append(number); return }
                keys.insert(String(stem.prefix(ZoneIndex.stemKeyLength)))
            }
            for key in keys.sorted() {
                byStem[key, default: []].append(number)
                if key.allUTF8(Self.isPrintableASCII) { byWord[CodeList.word(key), default: []].append(number) }
                if !stemLengths.contains(key.count) { stemLengths.append(key.count) }
            }
        }

        func candidates(_ code: String?, into set: inout ZoneSet, zones: [ZoneMatcher], address: ResolvedAddress) {
            for n in always where zones[n].contains(address) { set.insert(n) }
            guard let code, !byStem.isEmpty else { return }
            // A printable ASCII code is a byte a character: its prefixes are packed from its bytes.
            let packed: Bool? = code.utf8.withContiguousStorageIfAvailable { bytes in
                guard bytes.allSatisfy(Self.isPrintableASCII) else { return false }
                for length in stemLengths where bytes.count >= length {
                    guard let list = byWord[CodeList.word(utf8: UnsafeBufferPointer(rebasing: bytes[..<length]))] else { continue }
                    for n in list where zones[n].contains(address) { set.insert(n) }
                }
                return true
            }
            if packed == true { return }
            for length in stemLengths where code.count >= length {
                guard let list = byStem[String(code.prefix(length))] else { continue }
                for n in list where zones[n].contains(address) { set.insert(n) }
            }
        }
    }

    /// Numbers `zone` (a named zone once, however often it is referenced) and returns it numbered.
    mutating func file(_ zone: Zone) -> Zone {
        if let id = zone.id, let known = numberByID[id] { return zones[known] }
        var numbered = zone
        numbered.number = zones.count
        zones.append(numbered)
        matchers.append(ZoneMatcher(numbered))
        if let id = zone.id { numberByID[id] = numbered.number }
        let countries = zone.countries.map { Array($0).sorted() }
        if let countries {
            for country in countries { byCountry[country, default: StateLevel()].file(numbered) }
        } else {
            anyCountry.file(numbered)
        }
        return numbered
    }

    /// The numbers of the zones that hold `address`.
    func matching(_ address: ResolvedAddress) -> ZoneSet {
        var set = ZoneSet(capacity: zones.count)
        anyCountry.candidates(address, into: &set, zones: matchers)
        if let country = address.country, let level = byCountry[country] {
            level.candidates(address, into: &set, zones: matchers)
        }
        return set
    }
}

/// A zone behind a reference, read in place while matching, its countries and states compiled
/// to `CodeList`s. The same answer as `Zone.contains`.
final class ZoneMatcher: Sendable {
    let zone: Zone
    private let countries: CodeList?
    private let states: CodeList?
    private let excludeStates: CodeList?

    init(_ zone: Zone) {
        self.zone = zone
        countries = zone.countries.map(CodeList.init)
        states = zone.states.map(CodeList.init)
        excludeStates = zone.excludeStates.isEmpty ? nil : CodeList(zone.excludeStates)
    }

    func contains(_ address: ResolvedAddress) -> Bool {
        if let countries {
            guard let c = address.country, countries.contains(c, word: address.countryWord) else { return false }
        }
        if states != nil || excludeStates != nil {
            guard let s = address.state else { return false }
            if let states, !states.contains(s, word: address.stateWord) { return false }
            if let excludeStates, excludeStates.contains(s, word: address.stateWord) { return false }
        }
        return zone.holdsCityAndPostalCode(address)
    }
}

/// A set of zone (or method) numbers as a bit set: membership is one shift and mask. Up to 64
/// numbers (nearly every rule set) live in one word and the set allocates nothing; `members`
/// lists them in ascending order.
struct ZoneSet: Sendable {
    private var small: UInt64 = 0
    /// Used instead of `small` when the capacity is over 64.
    private var words: [UInt64]

    init(capacity: Int) { words = capacity > 64 ? Array(repeating: 0, count: (capacity + 63) / 64) : [] }

    mutating func insert(_ n: Int) {
        let bit: UInt64 = 1 << UInt64(n & 63)
        if words.isEmpty {
            precondition(n >= 0 && n < 64, "a zone number beyond the set's capacity")
            small |= bit
        } else {
            words[n >> 6] |= bit
        }
    }

    func contains(_ n: Int) -> Bool {
        guard n >= 0 else { return false }
        if words.isEmpty { return n < 64 && small & (1 << UInt64(n)) != 0 }
        return n >> 6 < words.count && words[n >> 6] & (1 << UInt64(n & 63)) != 0
    }

    /// Each member, ascending.
    func forEachMember(_ body: (Int) -> Void) {
        if words.isEmpty {
            var w = small
            while w != 0 { body(w.trailingZeroBitCount); w &= w - 1 }
            return
        }
        for (i, word) in words.enumerated() {
            var w = word
            while w != 0 { body(i << 6 | w.trailingZeroBitCount); w &= w - 1 }
        }
    }

    /// The members, ascending.
    var members: [Int] {
        var result: [Int] = []
        forEachMember { result.append($0) }
        return result
    }
}
