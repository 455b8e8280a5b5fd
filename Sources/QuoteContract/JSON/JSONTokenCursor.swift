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
struct JSONTokenCursor {
    private let input: UnsafeBufferPointer<UInt8>
    private var i = 0
    /// Whether every string stepped over so far was printable ASCII (U+0020–007E): then no
    /// text of the document can hold a control character, and one character is one byte.
    private(set) var onlyPrintableASCII = true

    init(_ input: UnsafeBufferPointer<UInt8>) { self.input = input }

    /// What follows an object's `{` or a member's value.
    enum Member {
        case key(Range<Int>)
        case end
    }

    mutating func skipWhitespace() {
        while i < input.count {
            switch input[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    /// Consumes `byte` after optional whitespace.
    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard i < input.count, input[i] == byte else { return false }
        i += 1
        return true
    }

    /// Whether only whitespace is left.
    mutating func atEnd() -> Bool {
        skipWhitespace()
        return i == input.count
    }

    /// Consumes `null` if it comes next (after whitespace).
    mutating func takeNull() -> Bool {
        skipWhitespace()
        guard i + 4 <= input.count, input[i] == UInt8(ascii: "n"), input[i + 1] == UInt8(ascii: "u"),
              input[i + 2] == UInt8(ascii: "l"), input[i + 3] == UInt8(ascii: "l") else { return false }
        i += 4
        return true
    }

    /// Whether the next token opens a string (nothing is consumed).
    mutating func atString() -> Bool {
        skipWhitespace()
        return i < input.count && input[i] == UInt8(ascii: "\"")
    }

    /// The first member of an object whose `{` was just taken, or the next one after a value:
    /// the key's bytes (the `:` consumed) or the end (the `}` consumed); nil on anything else.
    mutating func member(first: Bool) -> Member? {
        if take(UInt8(ascii: "}")) { return .end }
        if !first { guard take(UInt8(ascii: ",")) else { return nil } }
        guard let key = string(), take(UInt8(ascii: ":")) else { return nil }
        return .key(key)
    }

    /// Steps through an object (from its `{`) whose members are all among `keys` (at most 64),
    /// each at most once, `null` meaning absent: `body` reads the value of the member with the
    /// given index in `keys`, the cursor just after the `:`, and returns false to give up. False
    /// for bad syntax, an unknown or repeated key, or when `body` gives up.
    mutating func object(of keys: [StaticString], _ body: (inout JSONTokenCursor, Int) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        var seen: UInt64 = 0
        var first = true
        // Writers mostly send the members in the contract's order: the key after the last one
        // is tried first, so a member usually costs one comparison instead of a search.
        var expected = 0
        while true {
            let index: Int
            if expected < keys.count && takeKey(keys[expected], first: first) {
                index = expected
            } else {
                guard let next = member(first: first) else { return false }
                guard case .key(let key) = next else { return true }
                guard let found = keys.firstIndex(where: { bytes(key, equal: $0) }) else { return false }
                index = found
            }
            first = false
            guard seen & (1 << index) == 0 else { return false }
            expected = index + 1
            seen |= 1 << index
            if takeNull() { continue }
            guard body(&self, index) else { return false }
        }
    }

    /// Takes `"key":` (after a `,` unless it is the first member) when the key comes next spelled
    /// exactly so; otherwise takes nothing and answers false. Comparing the expected bytes in place
    /// skips the string scan a key would otherwise get.
    private mutating func takeKey(_ key: StaticString, first: Bool) -> Bool {
        let start = i
        if !first {
            guard take(UInt8(ascii: ",")) else { i = start; return false }
        }
        skipWhitespace()
        let n = key.utf8CodeUnitCount
        guard let base = input.baseAddress, i + n + 2 <= input.count, base[i] == UInt8(ascii: "\""),
              base[i + n + 1] == UInt8(ascii: "\""), memcmp(base + i + 1, key.utf8Start, n) == 0 else { i = start; return false }
        i += n + 2
        guard take(UInt8(ascii: ":")) else { i = start; return false }
        return true
    }

    /// Whether an array whose `[` was just taken goes on with another element (a `,` after the
    /// first); false when it ends (the `]` consumed); nil on anything else.
    mutating func element(first: Bool) -> Bool? {
        if take(UInt8(ascii: "]")) { return false }
        if first { return true }
        return take(UInt8(ascii: ",")) ? true : nil
    }

    /// A string's content bytes (quotes excluded). Nil for an escape, a raw control character
    /// or an unterminated string. A byte outside printable ASCII clears `onlyPrintableASCII`.
    mutating func string() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")), let base = input.baseAddress else { return nil }
        let start = i
        var printable = true
        // Eight bytes at a time: each mask flags bytes by their high bit, and its lowest flag is
        // exact (a borrow only ever flags bytes above a true one). Up to the first byte that ends
        // the string or needs a closer look (a quote, a backslash, a control character), then the
        // byte loop below decides from that byte on.
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ w: UInt64) -> UInt64 { (w &- ones) & ~w & highs }
        func bytesBelow(_ w: UInt64, _ n: UInt8) -> UInt64 { (w &- ones &* UInt64(n)) & ~w & highs }
        while i + 8 <= input.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            let special = zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C)) | bytesBelow(word, 0x20)
            let unprintable = (word & highs) | zeroBytes(word ^ (ones &* 0x7F))
            if special == 0 {
                if unprintable != 0 { printable = false }
                i += 8
                continue
            }
            let index = special.trailingZeroBitCount >> 3
            if index > 0 && unprintable & ((1 << UInt64(index * 8)) &- 1) != 0 { printable = false }
            i += index
            break
        }
        while i < input.count {
            let byte = base[i]
            if byte == UInt8(ascii: "\"") {
                i += 1
                if !printable { onlyPrintableASCII = false }
                return start..<(i - 1)
            }
            if byte < 0x20 || byte == UInt8(ascii: "\\") { return nil }
            printable = printable && byte < 0x7F
            i += 1
        }
        return nil
    }

    /// A number literal's bytes, checked against the JSON grammar (no leading zeros, digits on
    /// both sides of a point and after an exponent).
    mutating func number() -> Range<Int>? {
        skipWhitespace()
        let start = i
        if i < input.count && input[i] == UInt8(ascii: "-") { i += 1 }
        guard i < input.count, isDigit(input[i]) else { return nil }
        if input[i] == UInt8(ascii: "0") {
            i += 1
            if i < input.count && isDigit(input[i]) { return nil }
        } else {
            while i < input.count && isDigit(input[i]) { i += 1 }
        }
        if i < input.count && input[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() else { return nil }
        }
        if i < input.count && (input[i] == UInt8(ascii: "e") || input[i] == UInt8(ascii: "E")) {
            i += 1
            if i < input.count && (input[i] == UInt8(ascii: "+") || input[i] == UInt8(ascii: "-")) { i += 1 }
            guard digits() else { return nil }
        }
        return start..<i
    }

    private mutating func digits() -> Bool {
        let start = i
        while i < input.count && isDigit(input[i]) { i += 1 }
        return i > start
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: reading what was stepped over

    /// Whether the bytes in `range` are exactly `literal` (a key the reader knows).
    func bytes(_ range: Range<Int>, equal literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        guard let base = input.baseAddress, !range.isEmpty else { return true }
        return memcmp(base + range.lowerBound, literal.utf8Start, range.count) == 0
    }

    func bytes(_ range: Range<Int>, equal other: [UInt8]) -> Bool {
        guard range.count == other.count else { return false }
        guard let base = input.baseAddress, !range.isEmpty else { return true }
        return other.withUnsafeBufferPointer { memcmp(base + range.lowerBound, $0.baseAddress!, range.count) == 0 }
    }

    /// Whether the bytes in `range` are `text`'s UTF-8 (a currency code, say).
    func bytes(_ range: Range<Int>, equal text: String) -> Bool {
        let fast = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard range.count == utf8.count else { return false }
            guard let base = input.baseAddress, let other = utf8.baseAddress, !range.isEmpty else { return true }
            return memcmp(base + range.lowerBound, other, range.count) == 0
        }
        return fast ?? input[range].elementsEqual(text.utf8)
    }

    /// The bytes in `range`, valid while the document's buffer is.
    func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: input[range]) }

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
