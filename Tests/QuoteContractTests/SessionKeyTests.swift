import Foundation
@testable import QuoteContract
import Testing

/// A session key tells sessions apart exactly as their ids compare as `String`s (canonically
/// equivalent Unicode is one session), and keeps each id as it was spelt.
struct SessionKeyTests {
    private func hash(_ key: SessionKey) -> Int {
        var hasher = Hasher()
        key.hash(into: &hasher)
        return hasher.finalize()
    }

    @Test func anASCIIIdKeepsItsTextAndBytes() {
        let id = "b0000000-0000-4000-8000-000000000042"
        let key = SessionKey(id)
        #expect(key.text == id)
        #expect(key.utf8 == Array(id.utf8))
        #expect(key.description == id)
        #expect(key == SessionKey(utf8: Array(id.utf8)))
        #expect(hash(key) == hash(SessionKey(utf8: Array(id.utf8))))
    }

    @Test func theScannersKeyOfAnIdsBytesIsTheKeyOfItsText() {
        let id = "b0000000-0000-4000-8000-000000000042"
        let bytes = Array(id.utf8)
        let scanned = bytes.withUnsafeBufferPointer { SessionKey(inlineASCII: $0) }
        #expect(scanned == SessionKey(id))
        #expect(hash(scanned) == hash(SessionKey(id)))
        #expect(scanned.text == id)
    }

    /// Ids that differ in one byte, wherever it is (each of the five words, the last byte held
    /// inline, the first held out of line), are different sessions.
    @Test func idsThatDifferInAnyOneByteAreDifferentSessions() {
        for length in [1, 7, 8, 9, 16, 17, 36, 39, 40, 41, 64, 128] {
            let id = String(repeating: "a", count: length)
            for position in 0..<length {
                var bytes = Array(id.utf8)
                bytes[position] = UInt8(ascii: "b")
                let other = String(decoding: bytes, as: UTF8.self)
                #expect(SessionKey(id) != SessionKey(other), "length \(length), byte \(position)")
            }
            #expect(SessionKey(id) == SessionKey(String(repeating: "a", count: length)))
            #expect(SessionKey(id).text == id && SessionKey(id).utf8.count == length)
        }
    }

    @Test func idsThatArePrefixesOfOneAnotherAreDifferentSessions() {
        #expect(SessionKey("abc") != SessionKey("abc\u{0}"))
        #expect(SessionKey("") != SessionKey("\u{0}"))
        #expect(SessionKey(String(repeating: "x", count: 40)) != SessionKey(String(repeating: "x", count: 41)))
    }

    /// U+212A KELVIN SIGN is canonically "K": `String` calls the two ids equal, and so does the key,
    /// though one is held inline and the other was spelt in Unicode. Each keeps its spelling.
    @Test func anIdCanonicallyEqualToAnASCIIIdIsThatSessionAndKeepsItsSpelling() {
        let kelvin = "\u{212A}abc", ascii = "Kabc"
        #expect(kelvin == ascii)
        #expect(SessionKey(kelvin) == SessionKey(ascii))
        #expect(hash(SessionKey(kelvin)) == hash(SessionKey(ascii)))
        #expect(SessionKey(kelvin).utf8 == Array(kelvin.utf8))
        #expect(SessionKey(kelvin).text.unicodeScalars.first == "\u{212A}")
        #expect(SessionKey(ascii).utf8 == Array(ascii.utf8))
    }

    @Test func composedAndDecomposedAccentsAreOneSession() {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(SessionKey(composed) == SessionKey(decomposed))
        #expect(hash(SessionKey(composed)) == hash(SessionKey(decomposed)))
        #expect(SessionKey(composed).utf8 == Array(composed.utf8))
        #expect(SessionKey(decomposed).utf8 == Array(decomposed.utf8))
        #expect(SessionKey(composed) != SessionKey("cafe"))
        // Out of line too: past the inline capacity.
        let long = String(repeating: "z", count: 50)
        #expect(SessionKey(long + composed) == SessionKey(long + decomposed))
        #expect(SessionKey(long + composed) != SessionKey(long + "cafe"))
    }

    /// Bytes that are not UTF-8 (a record key can hold anything) read as `String(decoding:as:)`
    /// reads them: each bad byte a replacement character.
    @Test func aKeysBytesThatAreNotUTF8ReadAsStringDecodingReadsThem() {
        let bytes: [UInt8] = [0x61, 0xFF, 0x62]
        let key = SessionKey(utf8: bytes)
        #expect(key.text == "a\u{FFFD}b")
        #expect(key == SessionKey("a\u{FFFD}b"))
    }

    /// Over ids made of a few letters, accents and look-alikes, keys are equal exactly when the
    /// strings are, and equal keys hash alike.
    @Test func keysAreEqualExactlyWhenTheirTextsAreOverRandomIds() {
        var random = SystemRandomNumberGenerator()
        let pieces = ["a", "e", "K", "\u{212A}", "\u{E9}", "\u{301}", "-", "\u{3A9}", "\u{2126}", String(repeating: "9", count: 20)]
        func id() -> String { (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() }
        for _ in 0..<3_000 {
            let a = id(), b = id()
            #expect((SessionKey(a) == SessionKey(b)) == (a == b), "\(Array(a.unicodeScalars)) vs \(Array(b.unicodeScalars))")
            if a == b { #expect(hash(SessionKey(a)) == hash(SessionKey(b))) }
            #expect(SessionKey(a).text == a && SessionKey(a).utf8 == Array(a.utf8))
        }
    }

    /// Every scalar up to U+2FFF, alone and after "id-", against its canonical decomposition (as
    /// Foundation makes it): keys equal exactly when `String` says the texts are, and keys of equal
    /// texts hash alike.
    @Test func everyScalarAndItsDecompositionAreOneKeyExactlyWhenStringsAreEqual() {
        for value in UInt32(0x80)..<0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for prefix in ["", "id-"] {
                let text = prefix + String(Character(scalar))
                let decomposed = text.decomposedStringWithCanonicalMapping
                #expect((SessionKey(text) == SessionKey(decomposed)) == (text == decomposed), "U+\(String(value, radix: 16))")
                if text == decomposed { #expect(hash(SessionKey(text)) == hash(SessionKey(decomposed))) }
            }
        }
    }

    @Test func aStringLiteralIsTheKeyOfItsText() {
        let key: SessionKey = "s-1"
        #expect(key == SessionKey("s-1"))
    }
}
