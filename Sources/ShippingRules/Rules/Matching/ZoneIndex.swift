/// Every zone a rule set uses, numbered once and filed by country, then state, then the first
/// characters of its postal patterns. A quote looks up only the zones that could hold its address
/// and checks those in full, so its cost does not grow with zones of other countries, states or
/// postal areas. Matching is `Zone.contains`, unchanged: the index only skips zones that cannot match.
struct ZoneIndex: Sendable {
    /// Postal stems are filed by at most this many leading characters.
    static let stemKeyLength = 3

    let zones: [Zone]
    /// The same zones, each behind one reference: matching reads a zone where it lies, where an
    /// element of `zones` is copied (a retain of each of its members) for every `contains`.
    private let matchers: HeldObjects<ZoneMatcher>
    /// The levels by country, the first for zones of any country. A quote finds a level's number
    /// and reads the level where it lies: a level copied out of a dictionary retained each of its
    /// lists, and released them after, on every quote.
    private let countries: Levels<StateLevel>
    /// `countries`' levels, as a quote asks them (see `HeldObjects`).
    private let countryLevels: HeldObjects<StateLevel>

    /// Zones numbered and filed while a rule set is compiled; `index` makes the index of them.
    ///
    /// Zones are filed into values changed in place, and each level is made a constant once, at
    /// the end: a constant level remade for each zone filed copied its tables and its list of
    /// levels every time, since the level it replaced still held them (30,000 zones: +5% load
    /// instructions, +8-21% load time).
    struct Filing {
        private(set) var zones: [Zone] = []
        private var matchers: [ZoneMatcher] = []
        private var numberByID: [String: Int] = [:]
        private var countries = Levels<StateFiling>(any: StateFiling())

        /// Numbers `zone` (a named zone once, however often it is referenced) and returns it numbered.
        mutating func file(_ zone: Zone) -> Zone {
            if let id = zone.id, let known = numberByID[id] { return zones[known] }
            var numbered = zone
            numbered.number = zones.count
            zones.append(numbered)
            matchers.append(ZoneMatcher(numbered))
            if let id = zone.id { numberByID[id] = numbered.number }
            if let codes = zone.countries {
                for country in codes.sorted() { countries.file(numbered, at: countries.number(country, make: StateFiling.init)) }
            } else {
                countries.file(numbered, at: 0)
            }
            return numbered
        }

        /// The index of the zones filed so far.
        var index: ZoneIndex { ZoneIndex(zones: zones, matchers: matchers, countries: countries.map(StateLevel.init)) }
    }

    private init(zones: [Zone], matchers: [ZoneMatcher], countries: Levels<StateLevel>) {
        self.zones = zones
        self.matchers = HeldObjects(matchers)
        self.countryLevels = HeldObjects(countries.levels)
        self.countries = countries
    }

    /// Levels numbered by a place code (a country, a state), and a first one for "any".
    private struct Levels<Level: Sendable>: Sendable {
        private(set) var levels: [Level]
        /// By `CodeList.word` of the code where it packs (nearly always: an integer key hashes
        /// faster than a string), else by the code.
        private var byWord = WordTable<Int>()
        private var byCode: [String: Int] = [:]

        init(any: Level) { levels = [any] }

        private init(levels: [Level], byWord: WordTable<Int>, byCode: [String: Int]) {
            self.levels = levels
            self.byWord = byWord
            self.byCode = byCode
        }

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

        /// Files in place, the list and the level held here alone.
        mutating func file(_ zone: Zone, at n: Int) where Level: FiledLevel { levels[n].file(zone) }

        /// The number of `code`'s level, or nil; `word` is `CodeList.word(code)`.
        func number(of code: String?, word: UInt64) -> Int? {
            guard let code else { return nil }
            return word != 0 ? byWord[word] : byCode[code]
        }

        /// The same codes, each level made into another.
        func map<Other>(_ transform: (Level) -> Other) -> Levels<Other> {
            Levels<Other>(levels: levels.map(transform), byWord: byWord, byCode: byCode)
        }
    }

    /// A level while zones are filed.
    private protocol FiledLevel: Sendable {
        mutating func file(_ zone: Zone)
    }

    /// Zones of one country (or of any country), by state, while they are filed.
    private struct StateFiling: FiledLevel {
        var states = Levels<PostalFiling>(any: PostalFiling())

        mutating func file(_ zone: Zone) {
            guard let names = zone.states else { states.file(zone, at: 0); return }
            for state in names.sorted() {
                let n = states.number(state, make: PostalFiling.init)
                states.file(zone, at: n)
            }
        }
    }

    /// Zones of one state (or of any state), by postal stem, while they are filed.
    private struct PostalFiling: FiledLevel {
        var always: [Int] = []
        var byStem: [String: [Int]] = [:]
        var byWord = WordTable<[Int]>()
        var stemLengths: [Int] = []

        mutating func file(_ zone: Zone) {
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
            guard let keys else { always.append(number); return }
            for key in keys.sorted() {
                byStem[key, default: []].append(number)
                if key.allUTF8(PostalLevel.isPrintableASCII) {
                    let word = CodeList.word(key)
                    byWord[word] = (byWord[word] ?? []) + [number]
                }
                if !stemLengths.contains(key.count) { stemLengths.append(key.count) }
            }
        }
    }

    /// A level is a constant behind one reference: a quote reads its lists through it, where a
    /// level kept as a struct in a list was copied out for every lookup (a retain and a release of
    /// each of its lists and tables). Zones of one country (or of any country), by state.
    private final class StateLevel: Sendable {
        let states: Levels<PostalLevel>

        /// `states`' levels, as a quote asks them (see `HeldObjects`).
        let postalLevels: HeldObjects<PostalLevel>

        init(_ filed: StateFiling) {
            states = filed.states.map(PostalLevel.init)
            postalLevels = HeldObjects(states.levels)
        }

        func candidates(_ address: ResolvedAddress, into set: inout ZoneSet, zones: HeldObjects<ZoneMatcher>.Buffer) {
            let found = states.number(of: address.state, word: address.stateWord)
            postalLevels.ask(0) { $0.candidates(address.postalCode, into: &set, zones: zones, address: address) }
            if let found { postalLevels.ask(found) { $0.candidates(address.postalCode, into: &set, zones: zones, address: address) } }
        }
    }

    /// Zones of one state (or of any state), by postal stem.
    private final class PostalLevel: Sendable {
        /// Zones without postal patterns, or with a pattern no stem describes (a regex).
        let always: [Int]
        /// Zones that hold only codes starting with the key (1 to `stemKeyLength` characters).
        let byStem: [String: [Int]]
        /// The same lists by `CodeList.word` of the key, for the keys of printable ASCII (nearly
        /// all): an ASCII code's prefix is then packed from its bytes, where `String(code.prefix(n))`
        /// walked Characters and made a string for every length.
        let byWord: WordTable<[Int]>
        /// The key lengths present, so a lookup tries only those.
        let stemLengths: [Int]

        init(_ filed: PostalFiling) {
            always = filed.always
            byStem = filed.byStem
            byWord = filed.byWord
            stemLengths = filed.stemLengths
        }

        static func isPrintableASCII(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7f }

        func candidates(_ code: String?, into set: inout ZoneSet, zones: HeldObjects<ZoneMatcher>.Buffer, address: ResolvedAddress) {
            for n in always where zones.ask(n, { $0.contains(address) }) { set.insert(n) }
            guard let code, !byStem.isEmpty else { return }
            // A printable ASCII code is a byte a character: its prefixes are packed from its bytes.
            let packed: Bool? = code.utf8.withContiguousStorageIfAvailable { bytes in
                guard bytes.allSatisfy(Self.isPrintableASCII) else { return false }
                for length in stemLengths where bytes.count >= length {
                    guard let list = byWord[CodeList.word(utf8: UnsafeBufferPointer(rebasing: bytes[..<length]))] else { continue }
                    for n in list where zones.ask(n, { $0.contains(address) }) { set.insert(n) }
                }
                return true
            }
            if packed == true { return }
            for length in stemLengths where code.count >= length {
                guard let list = byStem[String(code.prefix(length))] else { continue }
                for n in list where zones.ask(n, { $0.contains(address) }) { set.insert(n) }
            }
        }
    }

    /// The numbers of the zones that hold `address`.
    func matching(_ address: ResolvedAddress) -> ZoneSet {
        var set = ZoneSet(capacity: zones.count)
        let found = countries.number(of: address.country, word: address.countryWord)
        // Zones and levels are asked where they lie, without a retain and a release of each (`HeldObjects`).
        matchers.withBuffer { zones in
            countryLevels.ask(0) { $0.candidates(address, into: &set, zones: zones) }
            if let found { countryLevels.ask(found) { $0.candidates(address, into: &set, zones: zones) } }
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
