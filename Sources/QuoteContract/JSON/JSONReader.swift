/// A strict RFC 8259 reader that keeps numbers as their literal text (Foundation's readers go
/// through `Double`, which the contract forbids for amounts).
///
/// Strict means: invalid UTF-8, unescaped control characters, lone surrogate escapes, duplicate
/// object keys, leading zeros, `NaN`/`Infinity`, a byte-order mark and anything after the
/// document are all refused. Both limits bound the work done on hostile input: the size is
/// checked before a single byte is parsed, the depth while parsing; the parser keeps its own
/// stack, so no input can exhaust the thread's stack.
public struct JSONReader: Sendable {
    public static let defaultMaxBytes = 1_048_576
    public static let defaultMaxDepth = 64

    /// Documents longer than this are refused unread.
    public var maxBytes: Int
    /// Arrays and objects nested deeper than this are refused (64 allows 64 levels).
    public var maxDepth: Int

    public init(maxBytes: Int = JSONReader.defaultMaxBytes, maxDepth: Int = JSONReader.defaultMaxDepth) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }

    public func read(_ bytes: [UInt8]) throws(JSONReadError) -> JSONValue {
        guard bytes.count <= maxBytes else { throw JSONReadError(.tooLarge, at: maxBytes) }
        let result: Result<JSONValue, JSONReadError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(input: buffer, maxDepth: maxDepth)
            return Result { () throws(JSONReadError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    public func read(_ buffer: UnsafeRawBufferPointer) throws(JSONReadError) -> JSONValue {
        guard buffer.count <= maxBytes else { throw JSONReadError(.tooLarge, at: maxBytes) }
        let result: Result<JSONValue, JSONReadError> = buffer.withMemoryRebound(to: UInt8.self) { bytes in
            var parser = JSONParser(input: bytes, maxDepth: maxDepth)
            return Result { () throws(JSONReadError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    public func read(_ text: String) throws(JSONReadError) -> JSONValue { try read(Array(text.utf8)) }
}

/// The parsing state for one document. Values of open containers wait on one flat stack and
/// are gathered when their container closes, so nesting costs heap, never call depth.
struct JSONParser {
    private let input: UnsafeBufferPointer<UInt8>
    private let end: Int
    private let maxDepth: Int
    private var i = 0
    private var values: [JSONValue] = []
    private var keys: [String] = []
    private var frames: [Frame] = []
    private var scratch: [UInt8] = []

    private struct Frame {
        let isObject: Bool
        let valueStart: Int
        let keyStart: Int
        /// Built only for objects with many members, where a linear duplicate check would be quadratic.
        var keySet: Set<String>?
    }

    /// Objects with fewer members than this are checked for duplicate keys by a linear scan.
    private static let linearKeyCheckLimit = 16

    init(input: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.input = input
        self.end = input.count
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONReadError) -> JSONValue {
        skipWhitespace()
        var value: JSONValue
        nextValue: while true {
            guard i < end else { throw JSONReadError(.unexpectedEnd, at: i) }
            switch input[i] {
            case UInt8(ascii: "{"):
                try open(isObject: true)
                skipWhitespace()
                if i < end && input[i] == UInt8(ascii: "}") {
                    i += 1
                    value = closeObject()
                } else {
                    try readKey()
                    continue nextValue
                }
            case UInt8(ascii: "["):
                try open(isObject: false)
                skipWhitespace()
                if i < end && input[i] == UInt8(ascii: "]") {
                    i += 1
                    value = closeArray()
                } else {
                    continue nextValue
                }
            case UInt8(ascii: "\""):
                value = .string(try readString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try readNumber())
            default:
                throw JSONReadError(.unexpectedByte, at: i)
            }
            // A value is complete: hand it to its container, closing every container that ends here.
            while true {
                guard let top = frames.last else {
                    skipWhitespace()
                    guard i == end else { throw JSONReadError(.trailingData, at: i) }
                    return value
                }
                values.append(value)
                skipWhitespace()
                guard i < end else { throw JSONReadError(.unexpectedEnd, at: i) }
                let byte = input[i]
                if byte == UInt8(ascii: ",") {
                    i += 1
                    skipWhitespace()
                    if top.isObject { try readKey() }
                    continue nextValue
                }
                if byte == (top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    value = top.isObject ? closeObject() : closeArray()
                    continue
                }
                throw JSONReadError(.unexpectedByte, at: i)
            }
        }
    }

    // MARK: containers

    private mutating func open(isObject: Bool) throws(JSONReadError) {
        guard frames.count < maxDepth else { throw JSONReadError(.tooDeep, at: i) }
        frames.append(Frame(isObject: isObject, valueStart: values.count, keyStart: keys.count, keySet: nil))
        i += 1
    }

    private mutating func closeArray() -> JSONValue {
        let frame = frames.removeLast()
        let elements = Array(values[frame.valueStart...])
        values.removeSubrange(frame.valueStart...)
        return .array(elements)
    }

    private mutating func closeObject() -> JSONValue {
        let frame = frames.removeLast()
        var members: [JSONMember] = []
        members.reserveCapacity(keys.count - frame.keyStart)
        for k in 0..<(keys.count - frame.keyStart) {
            members.append(JSONMember(keys[frame.keyStart + k], values[frame.valueStart + k]))
        }
        keys.removeSubrange(frame.keyStart...)
        values.removeSubrange(frame.valueStart...)
        return .object(JSONObject(members))
    }

    /// Reads `"key"` and the `:` after it, refusing a key the open object already has.
    private mutating func readKey() throws(JSONReadError) {
        guard i < end else { throw JSONReadError(.unexpectedEnd, at: i) }
        guard input[i] == UInt8(ascii: "\"") else { throw JSONReadError(.unexpectedByte, at: i) }
        let keyOffset = i
        let key = try readString()
        let f = frames.count - 1
        let start = frames[f].keyStart
        if keys.count - start < JSONParser.linearKeyCheckLimit {
            for k in start..<keys.count where keys[k] == key { throw JSONReadError(.duplicateKey, at: keyOffset) }
        } else {
            if frames[f].keySet == nil { frames[f].keySet = Set(keys[start...]) }
            guard frames[f].keySet!.insert(key).inserted else { throw JSONReadError(.duplicateKey, at: keyOffset) }
        }
        keys.append(key)
        skipWhitespace()
        guard i < end else { throw JSONReadError(.unexpectedEnd, at: i) }
        guard input[i] == UInt8(ascii: ":") else { throw JSONReadError(.unexpectedByte, at: i) }
        i += 1
        skipWhitespace()
    }

    // MARK: scalars

    private mutating func skipWhitespace() {
        while i < end {
            switch input[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONReadError) {
        let count = literal.utf8CodeUnitCount
        let bytes = literal.utf8Start
        for k in 0..<count {
            guard i + k < end else { throw JSONReadError(.unexpectedEnd, at: i + k) }
            guard input[i + k] == bytes[k] else { throw JSONReadError(.unexpectedByte, at: i + k) }
        }
        i += count
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Checks the number grammar and returns the literal unchanged.
    private mutating func readNumber() throws(JSONReadError) -> String {
        let start = i
        var j = i
        if input[j] == UInt8(ascii: "-") { j += 1 }
        guard j < end else { throw JSONReadError(.invalidNumber, at: j) }
        if input[j] == UInt8(ascii: "0") {
            j += 1
            if j < end && JSONParser.isDigit(input[j]) { throw JSONReadError(.invalidNumber, at: start) }
        } else if JSONParser.isDigit(input[j]) {
            while j < end && JSONParser.isDigit(input[j]) { j += 1 }
        } else {
            throw JSONReadError(.invalidNumber, at: j)
        }
        if j < end && input[j] == UInt8(ascii: ".") {
            j += 1
            let fractionStart = j
            while j < end && JSONParser.isDigit(input[j]) { j += 1 }
            guard j > fractionStart else { throw JSONReadError(.invalidNumber, at: j) }
        }
        if j < end && (input[j] == UInt8(ascii: "e") || input[j] == UInt8(ascii: "E")) {
            j += 1
            if j < end && (input[j] == UInt8(ascii: "+") || input[j] == UInt8(ascii: "-")) { j += 1 }
            let exponentStart = j
            while j < end && JSONParser.isDigit(input[j]) { j += 1 }
            guard j > exponentStart else { throw JSONReadError(.invalidNumber, at: j) }
        }
        i = j
        return String(decoding: UnsafeBufferPointer(rebasing: input[start..<j]), as: UTF8.self)
    }

    /// Reads a string starting at its opening quote. Plain ASCII without escapes (ids, codes,
    /// most labels) takes the fast path: one scan, one copy.
    private mutating func readString() throws(JSONReadError) -> String {
        let start = i + 1
        var j = start
        while j < end {
            let byte = input[j]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            j += 1
        }
        guard j < end else { throw JSONReadError(.unexpectedEnd, at: j) }
        if input[j] == UInt8(ascii: "\"") {
            i = j + 1
            return String(decoding: UnsafeBufferPointer(rebasing: input[start..<j]), as: UTF8.self)
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<j]))
        while true {
            guard j < end else { throw JSONReadError(.unexpectedEnd, at: j) }
            let byte = input[j]
            if byte == UInt8(ascii: "\"") {
                i = j + 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                j = try readEscape(at: j)
            } else if byte < 0x20 {
                throw JSONReadError(.controlCharacter, at: j)
            } else if byte < 0x80 {
                scratch.append(byte)
                j += 1
            } else {
                let length = validUTF8Length(at: j)
                guard length > 0 else { throw JSONReadError(.invalidUTF8, at: j) }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[j..<(j + length)]))
                j += length
            }
        }
    }

    /// Appends the escaped character at `j` (a backslash) to `scratch`; returns the offset after it.
    private mutating func readEscape(at j: Int) throws(JSONReadError) -> Int {
        guard j + 1 < end else { throw JSONReadError(.unexpectedEnd, at: j + 1) }
        let unescaped: UInt8
        switch input[j + 1] {
        case UInt8(ascii: "\""): unescaped = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): unescaped = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): unescaped = UInt8(ascii: "/")
        case UInt8(ascii: "b"): unescaped = 0x08
        case UInt8(ascii: "f"): unescaped = 0x0C
        case UInt8(ascii: "n"): unescaped = 0x0A
        case UInt8(ascii: "r"): unescaped = 0x0D
        case UInt8(ascii: "t"): unescaped = 0x09
        case UInt8(ascii: "u"):
            let unit = try hex4(at: j + 2)
            var scalarValue = unit
            var next = j + 6
            if (0xD800...0xDBFF).contains(unit) {
                guard next + 1 < end, input[next] == UInt8(ascii: "\\"), input[next + 1] == UInt8(ascii: "u") else {
                    throw JSONReadError(.loneSurrogate, at: j)
                }
                let low = try hex4(at: next + 2)
                guard (0xDC00...0xDFFF).contains(low) else { throw JSONReadError(.loneSurrogate, at: j) }
                scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                next += 6
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw JSONReadError(.loneSurrogate, at: j)
            }
            scratch.append(contentsOf: UTF8.encode(Unicode.Scalar(scalarValue)!)!)
            return next
        default:
            throw JSONReadError(.invalidEscape, at: j)
        }
        scratch.append(unescaped)
        return j + 2
    }

    private func hex4(at offset: Int) throws(JSONReadError) -> UInt32 {
        var value: UInt32 = 0
        for k in offset..<(offset + 4) {
            guard k < end else { throw JSONReadError(.unexpectedEnd, at: end) }
            let byte = input[k]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONReadError(.invalidEscape, at: offset - 2)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `j` (Unicode table 3-7: no overlong
    /// forms, no encoded surrogates, nothing above U+10FFFF), or 0.
    private func validUTF8Length(at j: Int) -> Int {
        let lead = input[j]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF   // bounds of the second byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard j + length <= end else { return 0 }
        guard input[j + 1] >= low && input[j + 1] <= high else { return 0 }
        for k in 2..<length where input[j + k] & 0xC0 != 0x80 { return 0 }
        return length
    }
}
