import Foundation
import Testing
@testable import QuoteContract
import ShippingRules

@Suite("JSON writer")
struct JSONWriterTests {
    @Test("writes compact JSON with members in the order given")
    func compactAndOrdered() {
        let value = JSONValue.object(JSONObject([
            "z": .number("1.50"), "a": .array([.null, .bool(true), .bool(false)]), "m": .object(JSONObject()),
        ]))
        #expect(String(decoding: JSONWriter.encode(value), as: UTF8.self) == #"{"z":1.50,"a":[null,true,false],"m":{}}"#)
    }

    @Test("escapes quotes, backslashes and control characters, and nothing else")
    func escapesStrings() {
        let text = "q\" b\\ s/ \u{8}\u{c}\n\r\t \u{1} \u{1f} \u{7f} é 😀"
        let written = String(decoding: JSONWriter.encode(.string(text)), as: UTF8.self)
        #expect(written == #""q\" b\\ s/ \b\f\n\r\t \u0001 \u001f "# + "\u{7f} é 😀\"")
        #expect((try? JSONReader().read(written)) == .string(text))
    }

    @Test("a field escapes a quote, backslash or control character wherever it falls, and copies other text whole")
    func fieldEscapesAtEveryPosition() throws {
        for length in 1...17 {
            for position in 0..<length {
                for special in ["\"", "\\", "\n", "\u{1}", "\u{1f}", "é"] {
                    var characters = Array(repeating: "a", count: length)
                    characters[position] = special
                    let text = characters.joined()
                    var writer = JSONWriter(capacity: 16)
                    writer.beginObject()
                    writer.field("id", "x")
                    writer.field("k", text)
                    writer.endObject()
                    let written = writer.bytes
                    #expect(try JSONReader().read(written) == .object(JSONObject(["id": .string("x"), "k": .string(text)])),
                            "\(String(decoding: written, as: UTF8.self))")
                    var copy = [UInt8](repeating: 0, count: text.utf8.count)
                    let plain = Array(text.utf8).withUnsafeBufferPointer { source in
                        copy.withUnsafeMutableBufferPointer { JSONWriter.copyIfPlain(source, to: $0.baseAddress!) }
                    }
                    #expect(plain == (special == "é"))
                }
            }
        }
    }

    @Test("a text is copied exactly when no byte of it is a quote, a backslash or a control character, wherever it sits, and nothing past its length is written")
    func copyIfPlainAgreesWithEachByteAtEveryLengthAndPosition() {
        func reference(_ bytes: [UInt8]) -> Bool { !bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } }
        var untouched = [UInt8](repeating: 0xEE, count: 8)
        #expect([UInt8]().withUnsafeBufferPointer { source in
            untouched.withUnsafeMutableBufferPointer { JSONWriter.copyIfPlain(source, to: $0.baseAddress!) }
        } == true)
        #expect(untouched == [UInt8](repeating: 0xEE, count: 8))
        for length in 1...24 {
            for position in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    // A clean text of this length with one byte set; bytes after it in the buffer
                    // (past the text's end) are a quote, which must not count.
                    var buffer = Array(repeating: UInt8(ascii: "a"), count: length) + Array(repeating: 0x22, count: 8)
                    buffer[position] = byte
                    let text = Array(buffer[..<length])
                    // The target has a guard after the text's length, which must stay as it was.
                    var target = [UInt8](repeating: 0xEE, count: length + 8)
                    let copied = buffer.withUnsafeBufferPointer { source in
                        target.withUnsafeMutableBufferPointer {
                            JSONWriter.copyIfPlain(UnsafeBufferPointer(rebasing: source[..<length]), to: $0.baseAddress!)
                        }
                    }
                    #expect(copied == reference(text), "length \(length), byte \(byte) at \(position)")
                    if copied { #expect(Array(target[..<length]) == text, "length \(length), byte \(byte) at \(position)") }
                    #expect(Array(target[length...]) == [UInt8](repeating: 0xEE, count: 8), "length \(length), byte \(byte) at \(position)")
                }
            }
        }
    }

    @Test("a document written straight into the array returned is the writer's own bytes, also where it outgrows the array's room")
    func encodeArrayAtEveryRoom() {
        func document(_ w: inout JSONWriter) {
            w.beginObject()
            w.field("id", "ship-\u{1}-\"fast\"")
            w.key("items")
            w.beginArray()
            for n in 0..<40 { w.amountObject(code: "USD", minorUnits: Int64(n) * 1_234, fractionDigits: 2) }
            w.endArray()
            w.endObject()
        }
        var reference = JSONWriter(capacity: 4096)
        document(&reference)
        let expected = reference.bytes
        #expect(expected.count > 1_000)
        for room in [0, 16, 17, 100, expected.count - 1, expected.count, expected.count + 1, 4096] {
            #expect(JSONWriter.encodeArray(capacity: room) { document(&$0) } == expected, "room \(room)")
        }
    }

    @Test("a writer that starts small grows and keeps every byte, fragments included")
    func growsFromATinyBuffer() {
        var writer = JSONWriter(capacity: 1)
        writer.beginArray()
        for n in 0..<200 {
            writer.beginObject()
            writer.key("id")
            writer.string("item-\(n)")
            writer.key("amount")
            writer.amountObject(code: "USD", minorUnits: Int64(n) * 101 - 5_000, fractionDigits: 2)
            writer.endObject()
        }
        writer.amountObject(code: "KWD", minorUnits: -5, fractionDigits: 3)
        writer.amountObject(code: "usd", minorUnits: 7, fractionDigits: 0)     // not three capitals: the member-by-member path
        writer.endArray()
        var expected = "["
        for n in 0..<200 {
            let units = n * 101 - 5_000
            let text = (units < 0 ? "-" : "") + "\(abs(units) / 100)." + String(format: "%02d", abs(units) % 100)
            expected += (n > 0 ? "," : "") + #"{"id":"item-\#(n)","amount":{"currency":"USD","value":"\#(text)"}}"#
        }
        expected += #",{"currency":"KWD","value":"-0.005"},{"currency":"usd","value":"7"}]"#
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }

    @Test("integers cover the whole Int64 range")
    func integers() {
        var writer = JSONWriter()
        writer.beginArray()
        for n: Int64 in [0, 7, -7, .max, .min] { writer.integer(n) }
        writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[0,7,-7,9223372036854775807,-9223372036854775808]")
    }

    @Test("amounts are written in place with exactly the currency's minor digits")
    func decimalStrings() {
        var writer = JSONWriter()
        writer.beginArray()
        for (units, digits): (Int64, Int) in [(1234, 2), (-5, 3), (0, 2), (7, 0), (-1200, 0), (100, 2), (.min, 2), (.max, 3)] {
            writer.decimalString(units, fractionDigits: digits)
        }
        writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self)
            == #"["12.34","-0.005","0.00","7","-1200","1.00","-92233720368547758.08","9223372036854775.807"]"#)
        for (units, digits): (Int64, Int) in [(1234, 2), (-5, 3), (0, 2), (7, 0), (-99, 2)] {
            var one = JSONWriter()
            one.decimalString(units, fractionDigits: digits)
            let currency = [0: Currency.jpy, 2: .usd, 3: .kwd][digits]!
            #expect(one.bytes == Array(("\"" + Money(minorUnits: units, currency: currency).decimalString + "\"").utf8))
        }
    }

    @Test("decimals agree with a digit-by-digit reference at every length and every count of minor digits")
    func decimalsAtEveryLength() {
        func reference(_ value: Int64, _ digits: Int) -> String {
            var text = String(value.magnitude)
            if text.count <= digits { text = String(repeating: "0", count: digits + 1 - text.count) + text }
            if digits > 0 { text.insert(".", at: text.index(text.endIndex, offsetBy: -digits)) }
            return (value < 0 ? "-" : "") + text
        }
        var values: [Int64] = [0, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0...18 {
            values += [power, power - 1, power + 1, -power, -(power - 1), -(power + 1), power * 7 / 3]
            power = power &* 10
        }
        for digits in 0...18 {
            for value in values {
                var writer = JSONWriter()
                writer.decimalString(value, fractionDigits: digits)
                #expect(String(decoding: writer.bytes, as: UTF8.self) == "\"" + reference(value, digits) + "\"", "\(value) with \(digits) digits")
            }
        }
    }

    @Test("a summary item written as one fragment is byte for byte the member-by-member object; a text needing an escape writes nothing")
    func idLabelAmountObjects() {
        func memberByMember(_ id: String, _ label: String, _ units: Int64, _ digits: Int, _ writer: inout JSONWriter) {
            writer.beginObject()
            writer.key("id"); writer.string(id)
            writer.key("label"); writer.string(label)
            writer.key("amount")
            writer.amountObject(code: "USD", minorUnits: units, fractionDigits: digits)
            writer.endObject()
        }
        let letters = (UInt8(ascii: "U"), UInt8(ascii: "S"), UInt8(ascii: "D"))
        let plain: [(String, String, Int64, Int)] = [("subtotal", "Subtotal", 5394, 2), ("", "", 0, 0), ("tax", "Sales tax (8.25 %) für Köln 🚚", -5, 3),
                                                      ("a-long-identifier-of-a-line", String(repeating: "x", count: 300), .min, 18)]
        var fast = JSONWriter(), slow = JSONWriter()
        fast.beginArray(); slow.beginArray()
        for (id, label, units, digits) in plain {
            let written = fast.idLabelAmountObject(id: id, label: label, letters: letters, minorUnits: units, fractionDigits: digits)
            #expect(written)
            memberByMember(id, label, units, digits, &slow)
        }
        fast.endArray(); slow.endArray()
        #expect(String(decoding: fast.bytes, as: UTF8.self) == String(decoding: slow.bytes, as: UTF8.self))

        for (id, label) in [("ok", "say \"hi\""), ("back\\slash", "ok"), ("ok", "line\nbreak"), ("tab\t", "ok")] {
            var writer = JSONWriter()
            writer.beginArray()
            let written = writer.idLabelAmountObject(id: id, label: label, letters: letters, minorUnits: 1, fractionDigits: 2)
            #expect(!written, "\(id) \(label)")
            writer.endArray()
            #expect(writer.bytes == Array("[]".utf8))
        }
        var writer = JSONWriter()
        let written = writer.idLabelAmountObject(id: "x", label: "y", letters: letters, minorUnits: 1, fractionDigits: 19)
        #expect(!written)
        #expect(writer.bytes.isEmpty)
    }

    @Test("what the reader reads, the writer writes back byte for byte (compact input)")
    func roundTrip() throws {
        let text = #"{"a":[1,-0,1e400,0.1,"x\"y",{"b":null}],"c":"é","d":{}}"#
        let value = try JSONReader().read(text)
        #expect(String(decoding: JSONWriter.encode(value), as: UTF8.self) == text)
    }

    @Test("only number literals pass as numbers")
    func numberLiteralCheck() {
        #expect(JSONWriter.isNumberLiteral("-0.5e-3"))
        for bad in ["", " 1", "1 ", "01", "+1", "1.", "NaN", "0x1", "[1]"] { #expect(!JSONWriter.isNumberLiteral(bad), "\(bad)") }
    }
}
