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
    /// The levels by country, the first for zones of any country. A quote finds a level's number
    /// and reads the level where it lies: a level copied out of a dictionary retained each of its
    /// lists, and released them after, on every quote.
    private var countries = Levels<StateLevel>(any: StateLevel())

    /// Levels numbered by a place code (a country, a state), and a first one for "any".
    private struct Levels<Level: FiledLevel>: Sendable {
        private(set) var levels: [Level]
        /// By `CodeList.word` of the code where it packs (nearly always: an integer key hashes
        /// faster than a string), else by the code.
        private var byWord: [UInt64: Int] = [:]
        private var byCode: [String: Int] = [:]

        init(any: Level) { levels = [any] }

        /// The number of `code`'s level, made with `make` the first time.
        mutating func number(_ code: String, make: () -> Level) -> Int {
            let word = CodeList.word(code)
            // A code equal as text to one filed before (`É` composed and decomposed) shares its
            // level, as the dictionary by code always did; its own bytes find it too.
            if let n = byCode[code] {
                if word != 0, byWord[word] == nil { byWord[word] = n }
                return n
            }
            levels.append(make())
            byCode[code] = levels.count - 1
            if word != 0 { byWord[word] = levels.count - 1 }
            return levels.count - 1
        }

        mutating func file(_ zone: Zone, at n: Int) { levels[n] = levels[n].filing(zone) }

        /// The number of `code`'s level, or nil; `word` is `CodeList.word(code)`.
        func number(of code: String?, word: UInt64) -> Int? {
            guard let code else { return nil }
            return word != 0 ? byWord[word] : byCode[code]
        }
    }

    /// A level is a constant behind one reference, remade with each zone filed while the index is
    /// built: a quote reads a level's lists through it, where a level kept as a struct in a list
    /// was copied out for every lookup (a retain and a release of each of its lists and tables).
    private protocol FiledLevel: Sendable {
        func filing(_ zone: Zone) -> Self
    }

    /// Zones of one country (or of any country), by state.
    private final class StateLevel: FiledLevel {
        let states: Levels<PostalLevel>

        init(states: Levels<PostalLevel> = Levels(any: PostalLevel())) { self.states = states }

        func filing(_ zone: Zone) -> StateLevel {
            var states = self.states
            if let names = zone.states {
                for state in names.sorted() {
                    let n = states.number(state, make: { PostalLevel() })
                    states.file(zone, at: n)
                }
            } else {
                states.file(zone, at: 0)
            }
            return StateLevel(states: states)
        }

        func candidates(_ address: ResolvedAddress, into set: inout ZoneSet, zones: UnsafeBufferPointer<ZoneMatcher>) {
            let found = states.number(of: address.state, word: address.stateWord)
            states.levels.withUnsafeBufferPointer { levels in
                levels[0].candidates(address.postalCode, into: &set, zones: zones, address: address)
                if let found { levels[found].candidates(address.postalCode, into: &set, zones: zones, address: address) }
            }
        }
    }

    /// Zones of one state (or of any state), by postal stem.
    private final class PostalLevel: FiledLevel {
        /// Zones without postal patterns, or with a pattern no stem describes (a regex).
        let always: [Int]
        /// Zones that hold only codes starting with the key (1 to `stemKeyLength` characters).
        let byStem: [String: [Int]]
        /// The same lists by `CodeList.word` of the key, for the keys of printable ASCII (nearly
        /// all): an ASCII code's prefix is then packed from its bytes, where `String(code.prefix(n))`
        /// walked Characters and made a string for every length.
        let byWord: [UInt64: [Int]]
        /// The key lengths present, so a lookup tries only those.
        let stemLengths: [Int]

        init(always: [Int] = [], byStem: [String: [Int]] = [:], byWord: [UInt64: [Int]] = [:], stemLengths: [Int] = []) {
            self.always = always
            self.byStem = byStem
            self.byWord = byWord
            self.stemLengths = stemLengths
        }

        static func isPrintableASCII(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7f }

        func filing(_ zone: Zone) -> PostalLevel {
            var byStem = self.byStem, byWord = self.byWord, stemLengths = self.stemLengths
            let number = zone.number
            // A zone without patterns, or with one no stem describes, is asked of every address.
            let keys = zone.postalCodes.flatMap { patterns -> Set<String>? in
                var keys: Set<String> = []
                for pattern in patterns {
                    guard let stem = pattern.leadingStem, !stem.isEmpty else { return nil }
                    keys.insert(String(stem.prefix(ZoneIndex.stemKeyLength)))
                }
                return keys
            }
            guard let keys else {
                return PostalLevel(always: always + [number], byStem: byStem, byWord: byWord, stemLengths: stemLengths)
            }
            for key in keys.sorted() {
                byStem[key, default: []].append(number)
                if key.allUTF8(Self.isPrintableASCII) { byWord[CodeList.word(key), default: []].append(number) }
                if !stemLengths.contains(key.count) { stemLengths.append(key.count) }
            }
            return PostalLevel(always: always, byStem: byStem, byWord: byWord, stemLengths: stemLengths)
        }

        func candidates(_ code: String?, into set: inout ZoneSet, zones: UnsafeBufferPointer<ZoneMatcher>, address: ResolvedAddress) {
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
        if let codes = zone.countries {
            for country in codes.sorted() { countries.file(numbered, at: countries.number(country, make: { StateLevel() })) }
        } else {
            countries.file(numbered, at: 0)
        }
        return numbered
    }

    /// The numbers of the zones that hold `address`.
    func matching(_ address: ResolvedAddress) -> ZoneSet {
        var set = ZoneSet(capacity: zones.count)
        let found = countries.number(of: address.country, word: address.countryWord)
        // Zones and levels are read through their buffers, where they lie (see `Levels`).
        matchers.withUnsafeBufferPointer { zones in
            countries.levels.withUnsafeBufferPointer { levels in
                levels[0].candidates(address, into: &set, zones: zones)
                if let found { levels[found].candidates(address, into: &set, zones: zones) }
            }
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
        // The address's codes are handed over as optionals: unwrapping one here copied it.
        if countries?.holds(address.country, word: address.countryWord) == false { return false }
        if states != nil || excludeStates != nil {
            if address.state == nil { return false }
            if states?.holds(address.state, word: address.stateWord) == false { return false }
            if excludeStates?.holds(address.state, word: address.stateWord) == true { return false }
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
