/// Writes compact JSON into a byte buffer, members in the order they are written (so the same
/// value always gives the same bytes). Number literals and decimal strings go out verbatim.
///
/// The streaming calls (`beginObject`, `key`, `string`, …) place commas themselves; the caller
/// is trusted to pair `begin`/`end` and to give every object value a `key` first.
///
/// Not copyable: the writer holds its buffer as a pointer (one it allocates and frees, or the
/// new array's of `encodeArray`), so a write is a store through it. As an array, every fragment
/// of a reply asked the array whether its buffer was shared (some fifty calls a reply) before writing.
public struct JSONWriter: ~Copyable {
    /// What has been written (a copy: a document written and returned at once is made with
    /// `encodeArray`, which needs none).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: length)) }
    /// `capacity` bytes, of which only the first `length` are written (and ever read). Not
    /// zero-filled: a reply's 4 KiB of zeros cost more than a fifth of encoding it.
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Whether `storage` was allocated here (and is freed here): false while it is the buffer of
    /// the array `encodeArray` makes, until the document outgrows it.
    private var owned: Bool
    private var length = 0
    private var needsComma = false

    public init(capacity: Int = 512) {
        self.capacity = max(capacity, 16)
        storage = .allocate(capacity: self.capacity)
        owned = true
    }

    private init(lent buffer: UnsafeMutableBufferPointer<UInt8>) {
        storage = buffer.baseAddress.unsafelyUnwrapped
        capacity = buffer.count
        owned = false
    }

    deinit { if owned { storage.deallocate() } }

    /// The document `body` writes, written straight into the buffer of the array returned (made
    /// with room for `capacity` bytes): no buffer of the writer's own, and no copy out of it. A
    /// document that outgrows it moves to a buffer of the writer's, and is copied out at the end.
    public static func encodeArray(capacity: Int, _ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var outgrown: [UInt8]?
        let written = [UInt8].written(capacity: max(capacity, 16)) { buffer in
            var writer = JSONWriter(lent: buffer)
            body(&writer)
            if writer.owned {
                outgrown = writer.bytes
                return 0
            }
            return writer.length
        }
        return outgrown ?? written
    }

    /// `value` as compact JSON.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(value)
        return writer.bytes
    }

    public mutating func beginObject() { structural(UInt8(ascii: "{"), afterComma: needsComma); needsComma = false }
    public mutating func endObject() { structural(UInt8(ascii: "}"), afterComma: false); needsComma = true }
    public mutating func beginArray() { structural(UInt8(ascii: "["), afterComma: needsComma); needsComma = false }
    public mutating func endArray() { structural(UInt8(ascii: "]"), afterComma: false); needsComma = true }

    /// A bracket or a brace, after a comma where one is due: one reservation and one write. (As
    /// two calls of `put`, each a call with its own reservation, a reply's brackets cost about a
    /// tenth of encoding it.)
    @inline(__always)
    private mutating func structural(_ byte: UInt8, afterComma comma: Bool) {
        reserve(2)
        let at = length
        if comma {
            storage[at] = UInt8(ascii: ",")
            storage[at + 1] = byte
        } else {
            storage[at] = byte
        }
        length += comma ? 2 : 1
    }

    /// A member name the code spells (the contract's names are plain ASCII: copied, not escaped).
    /// Inlined, so that a name's length is a constant where it is written and its copy a few
    /// moves rather than a call of `memcpy`.
    @inline(__always)
    public mutating func key(_ key: StaticString) {
        let count = key.utf8CodeUnitCount, comma = needsComma
        fragment(capacity: count + 4) { out in
            var k = 0
            if comma { out[0] = UInt8(ascii: ","); k = 1 }
            out[k] = UInt8(ascii: "\"")
            (out + k + 1).update(from: key.utf8Start, count: count)
            k += count + 1
            out[k] = UInt8(ascii: "\"")
            out[k + 1] = UInt8(ascii: ":")
            return k + 2
        }
        needsComma = false
    }

    /// `{"currency":"USD","value":"12.34"}`: an amount with exactly `fractionDigits` decimals,
    /// written as one fragment when the code is three capital letters (every `Currency`'s).
    mutating func amountObject(code: String, minorUnits: Int64, fractionDigits: Int) {
        var code = code
        let letters: (UInt8, UInt8, UInt8)? = code.withUTF8 { c in
            c.count == 3 && c.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) ? (c[0], c[1], c[2]) : nil
        }
        guard let letters, (0...18).contains(fractionDigits) else {
            beginObject()
            field("currency", code)
            key("value")
            decimalString(minorUnits, fractionDigits: fractionDigits)
            endObject()
            return
        }
        amountObject(letters: letters, minorUnits: minorUnits, fractionDigits: fractionDigits)
    }

    /// The same for a code given as its three capital letters (a `Currency`'s) and 0…18 decimals.
    mutating func amountObject(letters: (UInt8, UInt8, UInt8), minorUnits: Int64, fractionDigits: Int) {
        let comma = needsComma
        fragment(capacity: 80) { out in
            let k = comma ? JSONWriter.write(",", to: out) : 0
            return k + JSONWriter.writeAmountObject(letters: letters, minorUnits: minorUnits, fractionDigits: fractionDigits, to: out + k)
        }
        needsComma = true
    }

    /// `{"currency":"USD","value":"12.34"}` written at `out` (at most 79 bytes); returns its length.
    private static func writeAmountObject(letters: (UInt8, UInt8, UInt8), minorUnits: Int64, fractionDigits: Int,
                                          to out: UnsafeMutablePointer<UInt8>) -> Int {
        var k = write("{\"currency\":\"", to: out)
        out[k] = letters.0; out[k + 1] = letters.1; out[k + 2] = letters.2
        k += 3
        k += write("\",\"value\":\"", to: out + k)
        k += writeDecimal(minorUnits, fractionDigits: fractionDigits, to: out + k)
        return k + write("\"}", to: out + k)
    }

    /// `literal`'s bytes written at `out`; returns how many. Also the state record's literals.
    static func write(_ literal: StaticString, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out.update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        return literal.utf8CodeUnitCount
    }

    /// `{"id":"…","label":"…","amount":{"currency":"USD","value":"1.00"}}`, the shape of every
    /// summary item (the most frequent object of a reply), as one fragment. Returns false, having
    /// written nothing, when a text needs an escape or the digits are out of 0…18.
    mutating func idLabelAmountObject(id: String, label: String, letters: (UInt8, UInt8, UInt8),
                                      minorUnits: Int64, fractionDigits: Int) -> Bool {
        guard (0...18).contains(fractionDigits) else { return false }
        let comma = needsComma
        let written = JSONWriter.withBytes(of: id) { idBytes in
            JSONWriter.withBytes(of: label) { labelBytes -> Bool in
                var plain = true
                fragment(capacity: idBytes.count + labelBytes.count + 112) { out in
                    var k = comma ? JSONWriter.write(",", to: out) : 0
                    k += JSONWriter.write("{\"id\":\"", to: out + k)
                    // A text that needs an escape: nothing counted as written, and the caller's slow path.
                    guard JSONWriter.copyIfPlain(idBytes, to: out + k) else { plain = false; return 0 }
                    k += idBytes.count
                    k += JSONWriter.write("\",\"label\":\"", to: out + k)
                    guard JSONWriter.copyIfPlain(labelBytes, to: out + k) else { plain = false; return 0 }
                    k += labelBytes.count
                    k += JSONWriter.write("\",\"amount\":", to: out + k)
                    k += JSONWriter.writeAmountObject(letters: letters, minorUnits: minorUnits, fractionDigits: fractionDigits, to: out + k)
                    return k + JSONWriter.write("}", to: out + k)
                }
                return plain
            }
        }
        if written { needsComma = true }
        return written
    }

    /// A value of at most `capacity` bytes that `body` writes in place (returning how many), in
    /// one append; `body` must write valid JSON (a timestamp or a date in quotes, say).
    mutating func rawValue(capacity: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let comma = needsComma
        fragment(capacity: capacity + 1) { out in
            if !comma { return body(out) }
            out[0] = UInt8(ascii: ",")
            return 1 + body(out + 1)
        }
        needsComma = true
    }

    /// Bytes that `body` writes in place (at most `capacity`, returning how many): one
    /// pointer for a whole fragment instead of an append a byte.
    private mutating func fragment(capacity: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(capacity)
        let start = length
        length += body(storage + start)
    }

    /// A member name that came from data (escaped as any string).
    public mutating func key(text key: String) {
        separate()
        appendQuoted(key)
        put(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ text: String) { separate(); appendQuoted(text); needsComma = true }
    public mutating func null() { separate(); append("null"); needsComma = true }
    public mutating func bool(_ flag: Bool) { separate(); append(flag ? "true" : "false"); needsComma = true }

    /// A number literal, verbatim. It must follow the JSON number grammar (a programming error otherwise).
    public mutating func number(_ literal: String) {
        precondition(JSONWriter.isNumberLiteral(literal), "not a JSON number literal")
        separate()
        var literal = literal
        literal.withUTF8 { put($0) }
        needsComma = true
    }

    public mutating func integer(_ value: Int64) {
        separate()
        appendDecimal(value, fractionDigits: 0)
        needsComma = true
    }

    /// `minorUnits` as a decimal string with exactly `fractionDigits` decimals: 1234 and 2 give
    /// `"12.34"`, -5 and 3 give `"-0.005"`. Written in place, as amounts fill most of a reply.
    mutating func decimalString(_ minorUnits: Int64, fractionDigits: Int) {
        separate()
        put(UInt8(ascii: "\""))
        appendDecimal(minorUnits, fractionDigits: fractionDigits)
        put(UInt8(ascii: "\""))
        needsComma = true
    }

    /// `value / 10^fractionDigits` in decimal, with at least one integer digit.
    private mutating func appendDecimal(_ value: Int64, fractionDigits: Int) {
        precondition((0...18).contains(fractionDigits), "a currency has at most a few minor digits")
        fragment(capacity: 42) { JSONWriter.writeDecimal(value, fractionDigits: fractionDigits, to: $0) }
    }

    /// `appendDecimal`'s text written at `out` (at most 41 bytes); returns its length. Also the
    /// state record's integers, written in place.
    static func writeDecimal(_ value: Int64, fractionDigits: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var k = 0
        if value < 0 { out[0] = UInt8(ascii: "-"); k = 1 }
        var magnitude = value.magnitude
        // How many digits (an Int64's magnitude has at most 19), then the text written straight
        // into place from its end, two digits per division: through a scratch buffer and a copy,
        // the twelve amounts of a reply cost a tenth of encoding it.
        var digits = 1
        var bound: UInt64 = 10
        while digits < 19 && magnitude >= bound {
            digits &+= 1
            bound &*= 10
        }
        let integerDigits = max(digits - fractionDigits, 1)   // at least one: `0.05`
        let count = integerDigits + (fractionDigits > 0 ? 1 + fractionDigits : 0)
        let pairs = digitPairs.utf8Start
        var at = out + k + count
        func pair() {
            let p = Int(magnitude % 100) &* 2
            magnitude /= 100
            at -= 2
            at[0] = pairs[p]
            at[1] = pairs[p &+ 1]
        }
        func single() {
            at -= 1
            at[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        }
        if fractionDigits > 0 {
            var left = fractionDigits
            while left >= 2 { pair(); left &-= 2 }
            if left == 1 { single() }
            at -= 1
            at[0] = UInt8(ascii: ".")
        }
        var left = integerDigits
        while left >= 2 { pair(); left &-= 2 }
        if left == 1 { single() }
        return k + count
    }

    /// "00" to "99" back to back: a pair's two digits are at twice its value.
    private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    public mutating func integer(_ value: Int) { integer(Int64(value)) }

    /// `"key": "text"` in one call, the shape most contract fields have: one fragment when the
    /// text needs no escape (ids, labels and codes nearly always).
    @inline(__always)
    public mutating func field(_ name: StaticString, _ text: String) {
        let comma = needsComma
        let written = JSONWriter.withBytes(of: text) { utf8 -> Bool in
            let count = name.utf8CodeUnitCount
            var plain = true
            fragment(capacity: count + utf8.count + 7) { out in
                var k = 0
                if comma { out[0] = UInt8(ascii: ","); k = 1 }
                out[k] = UInt8(ascii: "\"")
                (out + k + 1).update(from: name.utf8Start, count: count)
                k += count + 1
                out[k] = UInt8(ascii: "\""); out[k + 1] = UInt8(ascii: ":"); out[k + 2] = UInt8(ascii: "\"")
                k += 3
                // A text that needs an escape: nothing counted as written, and the slow path below.
                guard JSONWriter.copyIfPlain(utf8, to: out + k) else { plain = false; return 0 }
                k += utf8.count
                out[k] = UInt8(ascii: "\"")
                return k + 1
            }
            return plain
        }
        if written { needsComma = true } else { key(name); string(text) }
    }

    /// `text`'s UTF-8 in place, without the copy (and reference count) `withUTF8` needs on a `var`;
    /// a string not stored as UTF-8 is copied first.
    @inline(__always)
    static func withBytes<R>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }

    /// Copies `utf8` to `out` when it holds no byte JSON cannot carry raw in a string (`"`, `\\`
    /// or a control character) and says so; false when it holds one, having written an unspecified
    /// part of it (the caller then counts nothing written: `out` is past the writer's length).
    /// `out` has room for `utf8.count` bytes, and nothing past them is written.
    ///
    /// One pass, eight bytes at a time, the last few too (the same masks as the scanner's): most
    /// texts written are ids and labels shorter than a word. Checking first and copying after
    /// (a `memcpy` call per text) read every text twice.
    @inline(__always)
    static func copyIfPlain(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ w: UInt64) -> UInt64 { (w &- ones) & ~w & highs }
        // A flag can be false only above a true one (a borrow runs upwards), so "any flag" is exact.
        func flags(_ w: UInt64) -> UInt64 { zeroBytes(w ^ (ones &* 0x22)) | zeroBytes(w ^ (ones &* 0x5C)) | ((w &- ones &* 0x20) & ~w & highs) }
        let source = UnsafeRawPointer(base), target = UnsafeMutableRawPointer(out)
        let n = utf8.count
        if n >= 8 {
            var k = 0
            while k &+ 8 <= n {
                let raw = source.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                if flags(UInt64(littleEndian: raw)) != 0 { return false }
                target.storeBytes(of: raw, toByteOffset: k, as: UInt64.self)
                k &+= 8
            }
            if k == n { return true }
            // The last word again, overlapping bytes already found clean and copied.
            let raw = source.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            if flags(UInt64(littleEndian: raw)) != 0 { return false }
            target.storeBytes(of: raw, toByteOffset: n &- 8, as: UInt64.self)
            return true
        }
        // Shorter than a word: two overlapping loads (and stores) of half or a quarter of one
        // hold the text's own bytes; the rest of the word checked is a letter, which flags nothing.
        let letters = ones &* UInt64(UInt8(ascii: "a"))
        if n >= 4 {
            let head = source.loadUnaligned(as: UInt32.self), tail = source.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            if flags(UInt64(UInt32(littleEndian: head)) | UInt64(UInt32(littleEndian: tail)) << 32) != 0 { return false }
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: n &- 4, as: UInt32.self)
        } else if n >= 2 {
            let head = source.loadUnaligned(as: UInt16.self), tail = source.loadUnaligned(fromByteOffset: n &- 2, as: UInt16.self)
            let w = letters & ~0xFFFF_FFFF | UInt64(UInt16(littleEndian: head)) | UInt64(UInt16(littleEndian: tail)) << 16
            if flags(w) != 0 { return false }
            target.storeBytes(of: head, as: UInt16.self)
            target.storeBytes(of: tail, toByteOffset: n &- 2, as: UInt16.self)
        } else if n == 1 {
            if flags(letters & ~0xFF | UInt64(base[0])) != 0 { return false }
            out[0] = base[0]
        }
        return true
    }

    public mutating func field(_ name: StaticString, _ value: Int64) { key(name); integer(value) }
    /// `"key": "text"` or `"key": null`.
    public mutating func field(_ name: StaticString, orNull text: String?) {
        key(name)
        if let text { string(text) } else { null() }
    }

    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let literal): number(literal)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object.members {
                key(text: member.key)
                self.value(member.value)
            }
            endObject()
        }
    }

    // MARK: bytes

    /// How many bytes are written so far: where the next value begins (after its comma, if any).
    var position: Int { length }

    /// Where a value written from `start` begins: after the comma that separated it, if one did.
    func fragmentStart(from start: Int) -> Int {
        start < length && storage[start] == UInt8(ascii: ",") ? start + 1 : start
    }

    /// A value already written at `range` (a whole value, written earlier by this writer), written
    /// again here as the next value.
    mutating func copyFragment(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= length, "a fragment copied is one already written")
        let comma = needsComma, back = length - range.lowerBound
        fragment(capacity: range.count + 1) { out in
            var k = 0
            if comma { out[0] = UInt8(ascii: ","); k = 1 }
            // `out` is where `length` is, past every byte written: source and copy never overlap.
            (out + k).update(from: out - back, count: range.count)
            return k + range.count
        }
        needsComma = true
    }

    /// Room for `count` more bytes after `length`: a comparison where the buffer has it (nearly
    /// always), the move to a larger one out of line.
    @inline(__always)
    private mutating func reserve(_ count: Int) {
        if length &+ count > capacity { grow(toHold: length &+ count) }
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let grown = max(needed, 2 * capacity)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: storage, count: length)
        if owned { storage.deallocate() }
        (storage, capacity, owned) = (moved, grown, true)
    }

    private mutating func put(_ byte: UInt8) {
        reserve(1)
        storage[length] = byte
        length += 1
    }

    private mutating func put(_ run: UnsafeBufferPointer<UInt8>) {
        guard let source = run.baseAddress, run.count > 0 else { return }
        reserve(run.count)
        let start = length
        (storage + start).update(from: source, count: run.count)
        length += run.count
    }

    private mutating func separate() {
        if needsComma { put(UInt8(ascii: ",")) }
    }

    private mutating func append(_ literal: StaticString) {
        put(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Quotes `text`, escaping `"`, `\` and the control characters JSON forbids raw; everything
    /// else (Swift strings are valid UTF-8) is copied as is, in runs rather than byte by byte.
    private mutating func appendQuoted(_ text: String) {
        JSONWriter.withBytes(of: text) { utf8 in
            var plain = true
            fragment(capacity: utf8.count + 2) { out in
                out[0] = UInt8(ascii: "\"")
                guard JSONWriter.copyIfPlain(utf8, to: out + 1) else { plain = false; return 0 }
                out[utf8.count + 1] = UInt8(ascii: "\"")
                return utf8.count + 2
            }
            if !plain { appendEscaped(utf8) }
        }
    }

    /// `appendQuoted`'s text that needs an escape: the runs between escapes copied as they are.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        put(UInt8(ascii: "\""))
        var runStart = 0
        for k in 0..<utf8.count {
            let byte = utf8[k]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") { continue }
            put(UnsafeBufferPointer(rebasing: utf8[runStart..<k]))
            appendEscaped(byte)
            runStart = k + 1
        }
        put(UnsafeBufferPointer(rebasing: utf8[runStart...]))
        put(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        let short: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = byte
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        default:
            for b in [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                      JSONWriter.hexDigits[Int(byte >> 4)], JSONWriter.hexDigits[Int(byte & 0xF)]] { put(b) }
            return
        }
        put(UInt8(ascii: "\\"))
        put(short)
    }

    /// Whether `literal` follows the JSON number grammar.
    static func isNumberLiteral(_ literal: String) -> Bool {
        guard let first = literal.utf8.first, first == UInt8(ascii: "-") || (first >= 48 && first <= 57),
              case .number? = try? JSONReader(maxDepth: 0).read(literal) else { return false }
        return literal.utf8.last.map { $0 >= 48 && $0 <= 57 } ?? false
    }
}
