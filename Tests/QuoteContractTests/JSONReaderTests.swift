import Foundation
import Testing
@testable import QuoteContract

@Suite("JSON reader")
struct JSONReaderTests {
    let reader = JSONReader()

    @Test("reads every kind of value and keeps the object's key order")
    func readsValuesInOrder() throws {
        let value = try reader.read(#" { "z": [true, false, null], "a": {"n": -12.5e+3}, "m": "x" } "#)
        let expected = JSONValue.object(JSONObject([
            "z": .array([.bool(true), .bool(false), .null]),
            "a": .object(JSONObject(["n": .number("-12.5e+3")])),
            "m": .string("x"),
        ]))
        #expect(value == expected)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.keys == ["z", "a", "m"])
    }

    @Test("top-level scalars and empty containers are documents too")
    func scalarsAndEmptyContainers() throws {
        #expect(try reader.read("42") == .number("42"))
        #expect(try reader.read("\"\"") == .string(""))
        #expect(try reader.read("[]") == .array([]))
        #expect(try reader.read("{}") == .object(JSONObject()))
        #expect(try reader.read("[[],{},[{}]]") == .array([.array([]), .object(JSONObject()), .array([.object(JSONObject())])]))
    }

    @Test("numbers keep their literal text exactly", arguments: [
        "0.1", "1e400", "-0", "0.123456789012345678901234567890", "1E+2", "-0.0e-0", "25.00", "100.005", "9223372036854775808",
    ])
    func numbersStayExact(literal: String) throws {
        #expect(try reader.read(literal) == .number(literal))
        #expect(try reader.read("[\(literal)]") == .array([.number(literal)]))
    }

    @Test("string escapes decode to the characters they name")
    func stringEscapes() throws {
        let value = try reader.read(#""q\" b\\ s\/ \b\f\n\r\t \u00e9 \ud83d\ude00 \u0000""#)
        #expect(value == .string("q\" b\\ s/ \u{8}\u{c}\n\r\t é 😀 \u{0}"))
    }

    @Test("raw multi-byte UTF-8 is read as is")
    func rawUTF8() throws {
        #expect(try reader.read("\"Zürich 東京 😀\"") == .string("Zürich 東京 😀"))
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let kind: JSONReadError.Kind
        let offset: Int
        init(_ name: String, _ text: String, _ kind: JSONReadError.Kind, at offset: Int) {
            self.init(name, Array(text.utf8), kind, at: offset)
        }
        init(_ name: String, _ bytes: [UInt8], _ kind: JSONReadError.Kind, at offset: Int) {
            self.name = name
            self.bytes = bytes
            self.kind = kind
            self.offset = offset
        }
        var testDescription: String { name }
    }

    static let badCases: [BadCase] = [
        BadCase("empty input", "", .unexpectedEnd, at: 0),
        BadCase("only whitespace", "  \n", .unexpectedEnd, at: 3),
        BadCase("leading zero", "01", .invalidNumber, at: 0),
        BadCase("negative leading zero", "[-012]", .invalidNumber, at: 1),
        BadCase("bare minus", "-", .invalidNumber, at: 1),
        BadCase("fraction without digits", "1.", .invalidNumber, at: 2),
        BadCase("fraction without integer", ".5", .unexpectedByte, at: 0),
        BadCase("plus sign", "+1", .unexpectedByte, at: 0),
        BadCase("exponent without digits", "1e", .invalidNumber, at: 2),
        BadCase("NaN", "NaN", .unexpectedByte, at: 0),
        BadCase("Infinity", "Infinity", .unexpectedByte, at: 0),
        BadCase("minus Infinity", "-Infinity", .invalidNumber, at: 1),
        BadCase("hex number", "0x10", .trailingData, at: 1),
        BadCase("trailing comma in array", "[1,]", .unexpectedByte, at: 3),
        BadCase("trailing comma in object", #"{"a":1,}"#, .unexpectedByte, at: 7),
        BadCase("missing colon", #"{"a" 1}"#, .unexpectedByte, at: 5),
        BadCase("missing comma", "[1 2]", .unexpectedByte, at: 3),
        BadCase("unquoted key", "{a:1}", .unexpectedByte, at: 1),
        BadCase("single quotes", "['a']", .unexpectedByte, at: 1),
        BadCase("unterminated string", #""abc"#, .unexpectedEnd, at: 4),
        BadCase("unterminated array", "[1,2", .unexpectedEnd, at: 4),
        BadCase("truncated literal", "tru", .unexpectedEnd, at: 3),
        BadCase("capitalised literal", "True", .unexpectedByte, at: 0),
        BadCase("raw tab in a string", "\"a\tb\"", .controlCharacter, at: 2),
        BadCase("raw newline in a string", "\"a\nb\"", .controlCharacter, at: 2),
        BadCase("raw NUL in a string", [0x22, 0x00, 0x22], .controlCharacter, at: 1),
        BadCase("unknown escape", #""\x41""#, .invalidEscape, at: 1),
        BadCase("short unicode escape", #""\u12""#, .invalidEscape, at: 1),
        BadCase("lone high surrogate", #""\ud800""#, .loneSurrogate, at: 1),
        BadCase("lone low surrogate", #""\udc00""#, .loneSurrogate, at: 1),
        BadCase("high surrogate then a letter", #""\ud800\u0041""#, .loneSurrogate, at: 1),
        BadCase("overlong UTF-8", [0x22, 0xC0, 0x80, 0x22], .invalidUTF8, at: 1),
        BadCase("UTF-8 encoded surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, at: 1),
        BadCase("UTF-8 above U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, at: 1),
        BadCase("truncated UTF-8 sequence", [0x22, 0x61, 0xE2, 0x82, 0x22], .invalidUTF8, at: 2),
        BadCase("stray continuation byte", [0x22, 0x80, 0x22], .invalidUTF8, at: 1),
        BadCase("byte 0xFF outside a string", [0x5B, 0xFF, 0x5D], .unexpectedByte, at: 1),
        BadCase("byte-order mark", [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], .unexpectedByte, at: 0),
        BadCase("duplicate key", #"{"a":1,"a":2}"#, .duplicateKey, at: 7),
        BadCase("duplicate key spelled with an escape", #"{"a":1,"\u0061":2}"#, .duplicateKey, at: 7),
        BadCase("trailing garbage", "{} x", .trailingData, at: 3),
        BadCase("two documents", "1 2", .trailingData, at: 2),
    ]

    @Test("refuses what RFC 8259 refuses, naming the byte", arguments: badCases)
    func refusesInvalidJSON(_ bad: BadCase) {
        #expect(throws: JSONReadError(bad.kind, at: bad.offset)) { try reader.read(bad.bytes) }
    }

    @Test("a duplicate key in a large object is found too")
    func duplicateKeyInLargeObject() {
        let members = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let text = "{\(members),\"k17\":0}"
        #expect(throws: JSONReadError(.duplicateKey, at: text.utf8.count - 8)) { try reader.read(text) }
        #expect(throws: Never.self) { try reader.read("{\(members)}") }
    }

    @Test("10,000 nested arrays fail fast at the depth limit, without recursion")
    func deepNestingFailsFast() {
        let open = [UInt8](repeating: UInt8(ascii: "["), count: 10_000)
        let closed = open + [UInt8](repeating: UInt8(ascii: "]"), count: 10_000)
        let start = ContinuousClock.now
        #expect(throws: JSONReadError(.tooDeep, at: 64)) { try reader.read(open) }
        #expect(throws: JSONReadError(.tooDeep, at: 64)) { try reader.read(closed) }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test("64 levels are read, 65 are too deep")
    func depthLimitIsExact() throws {
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        _ = try reader.read(nested(64))
        #expect(throws: JSONReadError(.tooDeep, at: 64)) { try reader.read(nested(65)) }
        #expect(throws: JSONReadError(.tooDeep, at: 5)) { try JSONReader(maxDepth: 5).read(nested(6)) }
        let object = String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65)
        #expect(throws: JSONReadError(.tooDeep, at: 64 * 5)) { try reader.read(object) }
    }

    @Test("a deep document under a raised limit reads without exhausting the stack")
    func deepDocumentWithRaisedLimit() throws {
        let depth = 100_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONReader(maxBytes: .max, maxDepth: depth).read(text)
        var levels = 0
        while case .array(let elements) = value, let first = elements.first { value = first; levels += 1 }
        #expect(levels == depth - 1)
    }

    @Test("1 MiB is read, 1 MiB + 1 byte is refused before parsing")
    func sizeLimit() throws {
        let exactly = [UInt8(ascii: "\"")] + [UInt8](repeating: UInt8(ascii: "a"), count: 1_048_574) + [UInt8(ascii: "\"")]
        #expect(exactly.count == 1_048_576)
        _ = try reader.read(exactly)
        // Not even valid JSON: the size alone decides.
        let over = [UInt8](repeating: UInt8(ascii: "{"), count: 1_048_577)
        #expect(throws: JSONReadError(.tooLarge, at: 1_048_576)) { try reader.read(over) }
    }

    @Test("reads from a raw buffer as from an array")
    func readsRawBuffer() throws {
        let bytes = Array(#"{"a":[1,"b"]}"#.utf8)
        let value = try bytes.withUnsafeBytes { buffer in try reader.read(buffer) }
        #expect(value == (try reader.read(bytes)))
    }

    @Test("error descriptions give the offset but never the input")
    func errorDescriptionsCarryNoInput() {
        do {
            _ = try reader.read(#"{"city":"Secretville","city":"x"}"#)
            Issue.record("expected a duplicate key error")
        } catch {
            #expect(error.description == "an object has the same key twice at byte 22")
            #expect(!error.description.contains("Secretville") && !error.description.contains("city"))
        }
    }
}
