/// An address normalized once per quote, so that matching many rules does not fold strings again.
struct ResolvedAddress: Sendable, Equatable {
    let country: String?
    let state: String?
    let city: String?
    let postalCode: String?
    let rawPostalCode: String?
    /// `CodeList.word` of the country and of the state (0 when absent).
    let countryWord: UInt64
    let stateWord: UInt64

    /// `foldCity` false skips folding the city for rule sets that never look at it.
    init(_ address: borrowing PartialAddress, foldCity: Bool = true) {
        country = Self.code(address.countryCode)
        state = Self.code(address.state)
        city = Self.city(address.city, fold: foldCity)
        // Trimmed and upper-cased once here rather than for every regex it meets.
        rawPostalCode = Self.code(address.postalCode)
        if let rawPostalCode { postalCode = PostalPattern.normalized(rawPostalCode) } else { postalCode = nil }
        if let country { countryWord = CodeList.word(country) } else { countryWord = 0 }
        if let state { stateWord = CodeList.word(state) } else { stateWord = 0 }
    }

    /// The address as `AddressNormalizer.normalizedIfChanged` and then `init(_:foldCity:)` make
    /// it, when its country, state and postal code are codes already (nearly every address a
    /// wallet sends); nil otherwise, and that way answers. Each of the three is read once, in one
    /// pass over its bytes, where the two steps asked of them five questions, a pass each.
    init?(inCodes address: borrowing PartialAddress, foldCity: Bool) {
        var country: String?, countryWord: UInt64 = 0
        if let text = address.countryCode {
            // Two capital letters, but not `UK`, which the normalizer makes `GB`.
            guard let bytes = CodeBytes(text), bytes.count == 2, bytes.isCapitals, bytes.word != Self.ukWord else { return nil }
            country = text
            countryWord = bytes.word
        }
        var state: String?, stateWord: UInt64 = 0
        if let text = address.state {
            guard let bytes = CodeBytes(text), bytes.isCode else { return nil }
            // A country with a table of subdivisions (US, CA, JP, GB) takes the state as sent
            // only when it is one of the table's codes.
            if country != nil, let table = AddressNormalizer.tables.subdivisions(ofWord: countryWord) {
                guard bytes.count <= 3, bytes.isAlphanumeric, table.table.packedCodes.contains(bytes.packed) else { return nil }
            }
            state = text
            stateWord = bytes.word
        }
        var postalCode: String?
        if let text = address.postalCode {
            // Already what `PostalPattern.normalized` makes: no separator, no lower case.
            guard let bytes = CodeBytes(text), bytes.isCode, !bytes.hasDash else { return nil }
            postalCode = text
        }
        self.country = country
        self.countryWord = countryWord
        self.state = state
        self.stateWord = stateWord
        self.city = Self.city(address.city, fold: foldCity)
        self.rawPostalCode = postalCode
        self.postalCode = postalCode
    }

    static let ukWord = CodeList.word("UK")

    /// A field of more than blanks: a blank one counts as missing.
    private static func isPresent(_ text: borrowing String) -> Bool { text.anyUTF8({ $0 != 0x20 && $0 != 0x09 }) }

    /// A present field as a place code (see `PlaceName.code`), or nil.
    private static func code(_ text: String?) -> String? {
        guard let text, isPresent(text) else { return nil }
        return PlaceName.code(text)
    }

    private static func city(_ text: String?, fold: Bool) -> String? {
        guard let text, isPresent(text) else { return nil }
        return fold ? PlaceName.fold(text) : text
    }
}

/// What a field's bytes say, read in one pass: whether it is a code as it stands, and its packed forms.
struct CodeBytes {
    let count: Int
    /// One byte or more, every one visible ASCII (0x21-0x7E) and none lower case: `PlaceName.code`
    /// keeps the text as it is.
    let isCode: Bool
    /// One byte or more, each A-Z or 0-9.
    let isAlphanumeric: Bool
    /// One byte or more, each A-Z.
    let isCapitals: Bool
    let hasDash: Bool
    /// `CodeList.word` of the text (0 beyond 7 bytes).
    let word: UInt64
    /// The last four bytes, first to last from the high byte: `AddressNormalizer.Subdivisions.pack`
    /// for codes of 1 to 3 bytes.
    let packed: UInt32

    /// Nil when the text's bytes are not at hand in one piece (a bridged string: never on Linux).
    @inline(__always)
    init?(_ text: String) {
        guard let read = text.utf8.withContiguousStorageIfAvailable({ bytes -> CodeBytes in CodeBytes(bytes) }) else { return nil }
        self = read
    }

    @inline(__always)
    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Each question a bit, set by any byte that says no: a few instructions a byte, no branch.
        var notCode: UInt8 = bytes.isEmpty ? 1 : 0, notAlphanumeric = notCode, notCapitals = notCode, dash: UInt8 = 0
        var packed: UInt32 = 0
        for b in bytes {
            let capital = b &- 0x41 < 26, digit = b &- 0x30 < 10
            notCode |= (b &- 0x21 >= 0x5e || b &- 0x61 < 26) ? 1 : 0
            notCapitals |= capital ? 0 : 1
            notAlphanumeric |= capital || digit ? 0 : 1
            dash |= b == 0x2d ? 1 : 0
            packed = packed << 8 | UInt32(b)
        }
        count = bytes.count
        isCode = notCode == 0
        isAlphanumeric = notAlphanumeric == 0
        isCapitals = notCapitals == 0
        hasDash = dash != 0
        word = CodeList.word(utf8: bytes)
        self.packed = packed
    }
}
