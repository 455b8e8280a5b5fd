#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Steps through the tokens of a JSON document in place, for readers that know the shape they
/// expect and want no tree. It accepts a strict subset of what `JSONReader` accepts: strings
/// without escapes or raw control characters, numbers in RFC 8259's grammar. Whatever falls
/// outside that subset makes a step return nil, and the caller hands the document to
/// `JSONReader`, which either reads it or says exactly what is wrong.
///
/// Every step is small and inlined into the reader that calls it: on a worker's hot path the
/// calls, not the bytes, were most of a scan's cost. A position never passes the input's count
/// (every read is guarded by it), and a count is far below `Int.max` (an event is at most 1 MiB), so
/// the steps' arithmetic wraps (`&+`) rather than checking for an overflow that cannot happen: the
/// checks were a branch on almost every step.
struct JSONTokenCursor {
    private let input: UnsafeBufferPointer<UInt8>
    private var i = 0
    /// Whether every string stepped over so far was printable ASCII (U+0020–007E): then no
    /// text of the document can hold a control character, and one character is one byte.
    private(set) var onlyPrintableASCII = true

    init(_ input: UnsafeBufferPointer<UInt8>) { self.input = input }

    @inline(__always)
    mutating func skipWhitespace() {
        // One comparison in the usual case: every byte of a token is above the space.
        while i < input.count, input[i] <= 0x20, input[i] == 0x20 || input[i] == 0x0A || input[i] == 0x0D || input[i] == 0x09 {
            i &+= 1
        }
    }

    /// Consumes `byte` after optional whitespace. Compact JSON has the byte right here: it is
    /// looked for first, and whitespace only where it is not (one test instead of two).
    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        if i < input.count && input[i] == byte {
            i &+= 1
            return true
        }
        skipWhitespace()
        guard i < input.count, input[i] == byte else { return false }
        i &+= 1
        return true
    }

    /// Whether only whitespace is left.
    mutating func atEnd() -> Bool {
        skipWhitespace()
        return i == input.count
    }

    /// Consumes `null` if it comes next (after whitespace).
    @inline(__always)
    mutating func takeNull() -> Bool {
        skipWhitespace()
        guard i &+ 4 <= input.count, input[i] == UInt8(ascii: "n"), input[i &+ 1] == UInt8(ascii: "u"),
              input[i &+ 2] == UInt8(ascii: "l"), input[i &+ 3] == UInt8(ascii: "l") else { return false }
        i &+= 4
        return true
    }

    /// Whether the next token opens a string (nothing is consumed).
    @inline(__always)
    mutating func atString() -> Bool {
        skipWhitespace()
        return i < input.count && input[i] == UInt8(ascii: "\"")
    }

    /// The next member of an object whose `{` was taken, all of whose members are among `names`,
    /// each at most once, `null` meaning absent: the member's index in `names`, the cursor just
    /// after its `:`; `MemberWalk.end` once the closing `}` is consumed; `MemberWalk.broken` for
    /// bad syntax or an unknown, escaped or repeated key. A member whose value is `null` is
    /// stepped over. The reader calls it in a loop and reads each value itself, in the same
    /// function: a closure called for each member (its prologue, its epilogue, the cursor handed
    /// back and forth) cost some 35 instructions a member, a tenth of a scan. `@_transparent`, not
    /// `@inline(__always)`: the optimizer stops inlining into a function past some 400 blocks, which
    /// the event's reader is; a transparent function is inlined by the mandatory pass, before any limit.
    @_transparent
    mutating func member(of names: MemberNames, _ walk: inout MemberWalk) -> Int {
        while true {
            if walk.started {
                // After a value: a comma or the closing brace, right here in compact JSON;
                // whitespace looked for only where neither is.
                if i < input.count && input[i] == UInt8(ascii: ",") {
                    i &+= 1
                } else if i < input.count && input[i] == UInt8(ascii: "}") {
                    i &+= 1
                    return MemberWalk.end
                } else {
                    skipWhitespace()
                    guard i < input.count else { return MemberWalk.broken }
                    let next = input[i]
                    i &+= 1
                    if next == UInt8(ascii: "}") { return MemberWalk.end }
                    guard next == UInt8(ascii: ",") else { return MemberWalk.broken }
                }
            } else {
                walk.started = true
                // An empty object, unless a key's quote follows at once (compact JSON, nearly every object).
                if !(i < input.count && input[i] == UInt8(ascii: "\"")) && take(UInt8(ascii: "}")) { return MemberWalk.end }
            }
            // The key's quote, right here in compact JSON; whitespace looked for only where it is not.
            if !(i < input.count && input[i] == UInt8(ascii: "\"")) {
                skipWhitespace()
                guard i < input.count, input[i] == UInt8(ascii: "\"") else { return MemberWalk.broken }
            }
            let start = i &+ 1
            let index: Int
            // Writers mostly send the members in the contract's order: the name after the last one
            // is tried first, so a key usually costs one comparison instead of a search. Compact
            // JSON (what gateways send) has the `:` right after the key: the name, its closing
            // quote and the colon are compared at once, and the value follows.
            let expected = walk.expected
            if expected < names.count && isName(names, expected, at: start, colon: true) {
                index = expected
                i = start &+ names.length(index) &+ 2
            } else if expected &+ 1 < names.count && isName(names, expected &+ 1, at: start, colon: true) {
                // An optional member left out (an event without `event_id`, `merchant`, …): the
                // one after it, tried here, spares the search its call.
                index = expected &+ 1
                i = start &+ names.length(index) &+ 2
            } else {
                // Another order, or whitespace before the colon.
                guard let found = nameIndex(names, expected: expected, at: start) else { return MemberWalk.broken }
                index = found
                i = start &+ names.length(index) &+ 1
                guard take(UInt8(ascii: ":")) else { return MemberWalk.broken }
            }
            let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: index)   // below 64 (MemberNames holds at most 64): a plain shift
            guard walk.seen & bit == 0 else { return MemberWalk.broken }
            walk.seen |= bit
            walk.expected = index &+ 1
            skipWhitespace()
            if i < input.count && input[i] == UInt8(ascii: "n") && takeNull() { continue }
            return index
        }
    }

    /// Steps over `run` (a key with its punctuation, as compact JSON writes it: `,"label":`) when
    /// its bytes come next exactly; false, nothing moved, for anything else. The run is a literal,
    /// so its words are constants in the code: a run of eight bytes or more is compared a word at a
    /// time, the last word overlapping the one before it, a shorter one as two half-words or byte
    /// by byte, and nothing is loaded past the end of either. (Compared with a member list's words,
    /// a key cost some 35 instructions; as a literal, about 8.) `@_transparent` as `member(of:_:)`.
    @_transparent
    mutating func take(exactly run: StaticString) -> Bool {
        let n = run.utf8CodeUnitCount
        guard i &+ n <= input.count else { return false }
        let at = UnsafeRawPointer(input.baseAddress.unsafelyUnwrapped + i), expected = UnsafeRawPointer(run.utf8Start)
        if n >= 8 {
            var k = 0
            while k &+ 8 < n {
                guard Self.word(at + k) == Self.word(expected + k) else { return false }
                k &+= 8
            }
            guard Self.word(at + (n &- 8)) == Self.word(expected + (n &- 8)) else { return false }
        } else if n >= 4 {
            guard Self.halfWord(at) == Self.halfWord(expected),
                  Self.halfWord(at + (n &- 4)) == Self.halfWord(expected + (n &- 4)) else { return false }
        } else {
            for k in 0..<n where at.load(fromByteOffset: k, as: UInt8.self) != expected.load(fromByteOffset: k, as: UInt8.self) { return false }
        }
        i &+= n
        return true
    }

    /// The eight bytes at `p`, wherever it points, in the machine's order (both sides of a compare
    /// are loaded alike): a copy of constant size, which the compiler makes one load
    /// (`loadUnaligned`, a generic function, was left as a call in the largest readers).
    @_transparent
    static func word(_ p: UnsafeRawPointer) -> UInt64 {
        var word: UInt64 = 0
        memcpy(&word, p, 8)
        return word
    }

    /// The four bytes at `p` (see `word`).
    @_transparent
    static func halfWord(_ p: UnsafeRawPointer) -> UInt32 {
        var word: UInt32 = 0
        memcpy(&word, p, 4)
        return word
    }

    /// Whether the key whose first byte is at `start` is `names`' name `index` and its closing
    /// quote, followed at once by the colon too when `colon` (as compact JSON has them: one run of
    /// bytes compared). Compared a word at a time where the document has the bytes to load.
    @inline(__always)
    private func isName(_ names: MemberNames, _ index: Int, at start: Int, colon: Bool) -> Bool {
        let n = names.length(index) &+ (colon ? 2 : 0)
        if !colon {
            guard start &+ n < input.count, input[start &+ n] == UInt8(ascii: "\"") else { return false }
        }
        var w = index &* MemberNames.wordsPerName
        guard start &+ 8 &* MemberNames.wordsPerName <= input.count else {
            // Too near the end to load whole words: byte by byte.
            guard start &+ n <= input.count else { return false }
            for k in 0..<n where input[start &+ k] != UInt8(truncatingIfNeeded: names.word(w &+ k / 8) >> UInt64(8 * (k % 8))) {
                return false
            }
            return true
        }
        let end = w &+ (n &+ 7) &>> 3   // n is a length: no sign to round
        var at = input.baseAddress.unsafelyUnwrapped + start
        repeat {
            let word = UInt64(littleEndian: UnsafeRawPointer(at).loadUnaligned(as: UInt64.self))
            // Without the colon, the names' words go on with `":`, which the mask leaves out.
            guard (word ^ names.word(w)) & (colon ? names.maskWithColon(w) : names.mask(w)) == 0 else { return false }
            at += 8
            w &+= 1
        } while w < end
        return true
    }

    /// The index of the key whose first byte is at `start` among `names`, when it is not the one
    /// expected with its colon right after it; nil for a key that is none of them, escaped or
    /// unterminated. The expected name and those after it come first: a writer that leaves out
    /// an optional member goes on in order.
    private func nameIndex(_ names: MemberNames, expected: Int, at start: Int) -> Int? {
        var index = expected
        while index < names.count {
            if isName(names, index, at: start, colon: false) { return index }
            index &+= 1
        }
        index = 0
        while index < expected && index < names.count {
            if isName(names, index, at: start, colon: false) { return index }
            index &+= 1
        }
        return nil
    }

    /// Whether an array whose `[` was just taken goes on with another element (a `,` after the
    /// first); false when it ends (the `]` consumed); nil on anything else.
    @inline(__always)
    mutating func element(first: Bool) -> Bool? {
        if take(UInt8(ascii: "]")) { return false }
        if first { return true }
        return take(UInt8(ascii: ",")) ? true : nil
    }

    /// A string's content bytes (quotes excluded). Nil for an escape, a raw control character
    /// or an unterminated string. A byte outside printable ASCII clears `onlyPrintableASCII`.
    @_transparent   // as `member(of:_:)`: the large readers are past the optimizer's inlining limit
    mutating func string() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        return stringAfterQuote()
    }

    /// The same for a string whose opening quote was just taken: a compact reader takes it with
    /// the key before it (`,"label":"`), in the same compare.
    @_transparent
    mutating func stringAfterQuote() -> Range<Int>? {
        let start = i
        // Eight bytes at a time: each mask flags bytes by their high bit, and its lowest flag is
        // exact (a borrow only ever flags bytes above a true one). Up to the first byte that ends
        // the string or needs a closer look (a quote, a backslash, a control character); only a
        // quote there ends the string.
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var unprintable: UInt64 = 0
        while i &+ 8 <= input.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(input.baseAddress.unsafelyUnwrapped + i).loadUnaligned(as: UInt64.self))
            let quotes = word ^ (ones &* 0x22), backslashes = word ^ (ones &* 0x5C), deletes = word ^ (ones &* 0x7F)
            let special = ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes | (word &- ones &* 0x20) & ~word) & highs
            let odd = (word | (deletes &- ones) & ~deletes) & highs
            if special == 0 {
                unprintable |= odd
                i &+= 8
                continue
            }
            let bit = special.trailingZeroBitCount
            unprintable |= odd & ((1 << UInt64(bit)) &- 1)   // the flags of the bytes before it
            i &+= bit >> 3
            guard input[i] == UInt8(ascii: "\"") else { return nil }
            i &+= 1
            if unprintable != 0 { onlyPrintableASCII = false }
            return start..<(i &- 1)
        }
        var printable = unprintable == 0
        while i < input.count {
            let byte = input[i]
            if byte == UInt8(ascii: "\"") {
                i &+= 1
                if !printable { onlyPrintableASCII = false }
                return start..<(i &- 1)
            }
            if byte < 0x20 || byte == UInt8(ascii: "\\") { return nil }
            printable = printable && byte < 0x7F
            i &+= 1
        }
        return nil
    }

    /// A number literal's bytes, checked against the JSON grammar (no leading zeros, digits on
    /// both sides of a point and after an exponent).
    @inline(__always)
    mutating func number() -> Range<Int>? {
        skipWhitespace()
        let start = i
        if i < input.count && input[i] == UInt8(ascii: "-") { i &+= 1 }
        guard i < input.count, isDigit(input[i]) else { return nil }
        if input[i] == UInt8(ascii: "0") {
            i &+= 1
            if i < input.count && isDigit(input[i]) { return nil }
        } else {
            while i < input.count && isDigit(input[i]) { i &+= 1 }
        }
        if i < input.count && input[i] == UInt8(ascii: ".") {
            i &+= 1
            guard digits() else { return nil }
        }
        if i < input.count && (input[i] == UInt8(ascii: "e") || input[i] == UInt8(ascii: "E")) {
            i &+= 1
            if i < input.count && (input[i] == UInt8(ascii: "+") || input[i] == UInt8(ascii: "-")) { i &+= 1 }
            guard digits() else { return nil }
        }
        return start..<i
    }

    private mutating func digits() -> Bool {
        let start = i
        while i < input.count && isDigit(input[i]) { i &+= 1 }
        return i > start
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The next value when it is an amount exactly as compact JSON writes one,
    /// `{"currency":"USD","value":…}` with a code of three capital letters and the value a string
    /// or a number: where its code and its value's literal are, the object stepped over. Nil for
    /// any other value (spaces inside, another order, another member, a `null`), having moved
    /// past nothing but the whitespace before it, which the caller reads member by member. Every amount of every event has this
    /// shape, and read as an object of two members it cost some 450 instructions.
    ///
    /// A value that is a string holding a plain decimal (`"25.00"`, as nearly every amount is
    /// written) is valued as it is stepped over (`decimal`): stepped over as a string and then read
    /// again as a decimal, each amount was read twice, and on a quoted event's path three times.
    @inline(__always)
    mutating func compactAmount() -> (currency: Range<Int>, literal: Range<Int>, decimal: PlainDecimal?)? {
        skipWhitespace()
        let start = i
        // `{"currency":"`, the code (three capitals), `","value":`: the value is at 26. This bound
        // is also what keeps the code's bytes and the value's first byte, read below without a
        // check of their own, within the input.
        guard start &+ 26 < input.count, take(exactly: #"{"currency":""#) else { return nil }
        func isCapital(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "A") < 26 }
        guard isCapital(input[i]), isCapital(input[i &+ 1]), isCapital(input[i &+ 2]) else { i = start; return nil }
        i &+= 3
        guard take(exactly: #"","value":"#) else { i = start; return nil }
        let printable = onlyPrintableASCII
        var decimal: PlainDecimal?
        let literal: Range<Int>?
        if input[i] == UInt8(ascii: "\""), let (value, end) = PlainDecimal.read(input, from: i &+ 1),
           end < input.count, input[end] == UInt8(ascii: "\"") {
            // Digits, a sign and a point: printable ASCII, a string without anything to look at twice.
            (literal, decimal) = ((i &+ 1)..<end, value)
            i = end &+ 1
        } else {
            literal = input[i] == UInt8(ascii: "\"") ? string() : number()
        }
        guard let literal, i < input.count, input[i] == UInt8(ascii: "}") else {
            (i, onlyPrintableASCII) = (start, printable)
            return nil
        }
        i &+= 1
        return ((start &+ 13)..<(start &+ 16), literal, decimal)
    }

    /// Where the next byte to read is.
    var offset: Int { i }

    /// Where the cursor is and what it has noted so far: a quick reading of a value that gives up
    /// comes back here (`rewind(to:)`) and the value is read the general way.
    var position: (offset: Int, printable: Bool) { (i, onlyPrintableASCII) }

    mutating func rewind(to position: (offset: Int, printable: Bool)) { (i, onlyPrintableASCII) = position }

    /// Whether the bytes from the cursor on begin with `other` (the cursor does not move).
    func continues(with other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard other.count <= input.count - i else { return false }
        guard let base = input.baseAddress, let otherBase = other.baseAddress, !other.isEmpty else { return true }
        return memcmp(base + i, otherBase, other.count) == 0
    }

    /// Steps over `count` bytes the caller knows to be a whole value (with what `continues(with:)` saw).
    mutating func skip(_ count: Int) { i &+= count }

    /// Runs `body` and says whether every string it stepped over was printable ASCII, leaving
    /// `onlyPrintableASCII` as if `body` had run alone.
    @inline(__always)
    mutating func noting<T>(plainness body: (inout JSONTokenCursor) -> T) -> (T, plain: Bool) {
        let before = onlyPrintableASCII
        onlyPrintableASCII = true
        let result = body(&self)
        let plain = onlyPrintableASCII
        onlyPrintableASCII = before && plain
        return (result, plain)
    }

    // MARK: reading what was stepped over

    /// Whether the bytes in `range` are exactly `literal` (a key the reader knows).
    func bytes(_ range: Range<Int>, equal literal: StaticString) -> Bool {
        let n = range.count
        guard n == literal.utf8CodeUnitCount else { return false }
        guard let base = input.baseAddress else { return n == 0 }
        // A byte loop costs about seven instructions a byte: beyond a few bytes (a trigger's
        // fifteen) `memcmp` is cheaper, call and all.
        let actual = base + range.lowerBound, expected = literal.utf8Start
        if n > 4 { return memcmp(actual, expected, n) == 0 }
        for k in 0..<n where actual[k] != expected[k] { return false }
        return true
    }

    func bytes(_ range: Range<Int>, equal other: [UInt8]) -> Bool {
        guard range.count == other.count else { return false }
        guard let base = input.baseAddress, !range.isEmpty else { return true }
        return other.withUnsafeBufferPointer { memcmp(base + range.lowerBound, $0.baseAddress!, range.count) == 0 }
    }

    /// The bytes in `range`, valid while the document's buffer is.
    func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: input[range]) }

    /// The next value when it is a number literal of digits only (no sign, fraction or exponent,
    /// no leading zero) that fits `Int64`, stepped over and valued in one pass; nil for any other
    /// value (the caller gives up, and the full decoder judges it). Validating the literal with
    /// `number()` and then valuing it with `wholeNumber(_:)` read each of an event's numbers twice.
    @inline(__always)
    mutating func wholeNumber() -> Int64? {
        skipWhitespace()
        let start = i
        var value: Int64 = 0
        // Wrapping sums: 18 digits cannot leave `Int64`, and a longer literal is valued again below.
        while i < input.count {
            let digit = input[i] &- UInt8(ascii: "0")
            guard digit <= 9 else { break }
            value = value &* 10 &+ Int64(digit)
            i &+= 1
        }
        let count = i &- start
        guard count > 0, count == 1 || input[start] != UInt8(ascii: "0") else { return nil }
        if i < input.count && (input[i] == UInt8(ascii: ".") || input[i] == UInt8(ascii: "e") || input[i] == UInt8(ascii: "E")) {
            return nil
        }
        return count <= 18 ? value : wholeNumber(start..<i)
    }

    /// A number literal made of digits only (no sign, fraction or exponent) that fits `Int64`.
    func wholeNumber(_ range: Range<Int>) -> Int64? {
        var value: Int64 = 0
        for k in range {
            let digit = input[k] &- UInt8(ascii: "0")
            guard digit <= 9 else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int64(digit))
            guard !o1, !o2 else { return nil }
            value = sum
        }
        return value
    }
}

/// Where a reader is among an object's members (`JSONTokenCursor.member(of:_:)`): which were seen,
/// and which is expected next.
struct MemberWalk {
    /// `member(of:_:)`'s answer once the object's `}` is consumed.
    static let end = -1
    /// Its answer for bad syntax, or a key unknown, escaped or given twice: the reader gives up.
    static let broken = -2
    fileprivate var seen: UInt64 = 0
    fileprivate var expected = 0
    fileprivate var started = false
}
