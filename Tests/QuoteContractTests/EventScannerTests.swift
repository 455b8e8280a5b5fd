import Foundation
import Testing
@testable import QuoteContract
import ShippingRules

/// The scanner (`ScannedEvent`) is a shortcut the worker takes for ordinary events; the full decoder is the
/// authority. Whatever the scanner accepts must decode to the very same event through the full
/// decoder, and whatever the full decoder refuses the scanner must refuse too.
@Suite("Event scanner agrees with the full decoder")
struct EventScannerTests {
    /// What the two readers said of one document.
    enum Agreement: Equatable {
        /// Both read the same event: the shortcut was taken.
        case scanned
        /// The scanner passed it on; the full decoder read it.
        case passedOnAndRead
        /// The scanner passed it on; the full decoder refused it.
        case passedOnAndRefused
        /// They disagree (a bug): the scanner read something the full decoder refused or read differently.
        case disagree(String)
    }

    static func compare(_ bytes: [UInt8], key: [UInt8]? = ContractFixtures.key) -> Agreement {
        let full = AddressChangeEvent.decodeThoroughly(bytes, checkingKey: key != nil, key: key)
        let scan = ScannedEvent(bytes, checkingKey: key != nil, key: key)
        let scanned = scan?.event()
        // What the scan makes at once must be what the built event holds.
        if let scan, let scanned, scan.sessionID != scanned.sessionID || scan.sequence != scanned.sequence
            || scan.eventID != scanned.eventID || scan.occurredAt != scanned.occurredAt || scan.replyBy != scanned.replyBy {
            return .disagree("the scan's session, sequence, event id or times differ from its event's")
        }
        // The worker quotes the request the scan makes directly: it must be the built event's.
        if let scan, let scanned, scan.quoteRequest(now: scan.occurredAt) != scanned.quoteRequest(now: scanned.occurredAt) {
            return .disagree("the scan's quote request differs from its event's")
        }
        switch (scanned, full) {
        case (let event?, .success(let expected)):
            return event == expected ? .scanned : .disagree("scanned \(event), the full decoder read \(expected)")
        case (let event?, .failure(let rejection)):
            return .disagree("scanned \(event), the full decoder refused it: \(rejection)")
        case (nil, .success): return .passedOnAndRead
        case (nil, .failure): return .passedOnAndRefused
        }
    }

    @Test("an item with a shipping class and a size is taken by the scanner, to the same event")
    func shippingProfile() throws {
        let value = try JSONReader().read(ContractFixtures.example(setting: "cart.items[0].shipping_class", to: .string("oversized")))
        let bytes = JSONWriter.encode(value.replacing(PathStep.parse("cart.items[0].dimensions_mm")[...], with: size(600, 400, 400)))
        #expect(Self.compare(bytes) == .scanned)
        let event = try #require(ScannedEvent(bytes, key: ContractFixtures.key)).event()
        #expect(event.cart.items[0].shippingClass == "oversized")
        #expect(event.cart.items[0].dimensions == ItemDimensions(length: 600, width: 400, height: 400))
        #expect(Self.compare(event.encode()) == .scanned)
    }

    @Test("the contract's example is taken by the scanner, to the same event")
    func contractExample() {
        #expect(Self.compare(ContractFixtures.exampleBytes) == .scanned)
        #expect(Self.compare(ContractFixtures.exampleBytes, key: nil) == .scanned)
    }

    @Test("the encoder's own output (compact, every optional present) is taken by the scanner")
    func encodedEvent() throws {
        var event = try ContractFixtures.decode(ContractFixtures.exampleBytes).get()
        event.cart = Cart(items: event.cart.items, discounts: event.cart.discounts, subtotal: Money(minorUnits: 5_000, currency: .usd))
        #expect(Self.compare(event.encode()) == .scanned)
        event.cart = Cart(items: [], discounts: [], subtotal: Money(minorUnits: 1_999, currency: .usd))
        #expect(Self.compare(event.encode()) == .scanned)
    }

    @Test("non-ASCII text is read by the scanner when it is valid UTF-8",
          arguments: ["São Paulo", "Zürich", "東京", "Montréal 🚚"])
    func nonASCIIText(city: String) {
        let bytes = ContractFixtures.example(setting: "shipping_address.city", to: .string(city))
        #expect(Self.compare(bytes) == .scanned)
        let event = try? ContractFixtures.decode(bytes).get()
        #expect(event?.shippingAddress.city == city)
    }

    @Test("what the scanner does not handle goes to the full decoder, which reads it", arguments: [
        #"{"version":1,"session_id":"s","sequence":1,"payment_method_type":"APPLE_PAY","trigger":"sheet_opened","currency":"USD","shipping_address":{},"cart":{},"occurred_at":"2026-10-10T12:00:00Z","extra":{"a":[1,2]}}"#,
        #"{"version":1,"session_id":"s","sequence":1,"payment_method_type":"APPLE\u005fPAY","trigger":"sheet_opened","currency":"USD","shipping_address":{},"cart":{},"occurred_at":"2026-10-10T12:00:00Z"}"#,
        #"{"version":1,"session_id":"s","sequence":1,"payment_method_type":"APPLE_PAY","trigger":"sheet_opened","currency":"USD","shipping_address":{"street_hint":null},"cart":{},"occurred_at":"2026-10-10T12:00:00Z"}"#,
    ])
    func passedOnButValid(text: String) {
        #expect(Self.compare(Array(text.utf8), key: Array("s".utf8)) == .passedOnAndRead)
    }

    /// A small event whose members are spelled out, so that their order, spacing and keys can be varied.
    static func smallEvent(_ members: [String], separator: String = ",") -> [UInt8] {
        Array(("{" + members.joined(separator: separator) + "}").utf8)
    }

    static let smallMembers = [
        #""version":1"#, #""session_id":"s""#, #""sequence":1"#, #""payment_method_type":"APPLE_PAY""#,
        #""trigger":"sheet_opened""#, #""currency":"USD""#,
        #""shipping_address":{"city":"Austin","state":"TX","postal_code":"78701","country_code":"US"}"#,
        #""cart":{"items":[{"id":"a","label":"A","quantity":2,"unit_amount":{"currency":"USD","value":"1.25"}}]}"#,
        #""occurred_at":"2026-10-10T12:00:00Z""#,
    ]

    @Test("members in any order, optional ones left out, and whitespace anywhere: the scanner reads the same event")
    func memberOrderAndSpacing() {
        let key = Array("s".utf8)
        #expect(Self.compare(Self.smallEvent(Self.smallMembers), key: key) == .scanned)
        // Reversed, `version` comes last: a key that close to the end is compared byte by byte.
        #expect(Self.compare(Self.smallEvent(Self.smallMembers.reversed()), key: key) == .scanned)
        #expect(Self.compare(Self.smallEvent([Self.smallMembers[8]] + Self.smallMembers.dropLast()), key: key) == .scanned)
        let spaced = "{ " + Self.smallMembers.map { $0.replacingOccurrences(of: "\":", with: "\" :\n\t") }
            .joined(separator: " ,\r\n ") + " }"
        #expect(Self.compare(Array(spaced.utf8), key: key) == .scanned)
        // An optional member after all the others.
        #expect(Self.compare(Self.smallEvent(Self.smallMembers + [#""reply_by":"2026-10-10T12:00:30Z""#]), key: key) == .scanned)
    }

    @Test("a key that is a name with a byte more or less, an escape or a second time is not taken for it", arguments: [
        #""sequenc":1"#, #""sequencee":1"#, #""Sequence":1"#, #""sequence":1"#, #""sequence":1"#, #""city":"x""#,
    ])
    func nearNames(extra: String) {
        // Each is either unknown, escaped or a repeat: the scanner passes the event on, and the full
        // decoder says what it is.
        let bytes = Self.smallEvent(Self.smallMembers + [extra])
        let agreement = Self.compare(bytes, key: Array("s".utf8))
        #expect(agreement == .passedOnAndRead || agreement == .passedOnAndRefused)
        #expect(ScannedEvent(bytes, key: Array("s".utf8)) == nil)
    }

    @Test("an amount's currency must be the event's byte for byte: a Kelvin sign is not a K")
    func kelvinSignIsNotK() throws {
        func event(amountCurrency: String) -> [UInt8] {
            Array(#"{"version":1,"session_id":"s","sequence":1,"payment_method_type":"APPLE_PAY","trigger":"address_changed","currency":"KWD","shipping_address":{},"cart":{"items":[{"id":"a","label":"A","quantity":1,"unit_amount":{"currency":"\#(amountCurrency)","value":"1.250"}}]},"occurred_at":"2026-10-10T12:00:00Z"}"#.utf8)
        }
        #expect(Self.compare(event(amountCurrency: "KWD"), key: Array("s".utf8)) == .scanned)
        let kelvin = event(amountCurrency: "\u{212A}WD")
        #expect(Self.compare(kelvin, key: Array("s".utf8)) == .passedOnAndRefused)
        let rejection = try #require(ContractFixtures.rejection(kelvin, key: Array("s".utf8)))
        #expect(rejection.code == .currencyMismatch)
        #expect(rejection.field == "cart.items[0].unit_amount.currency")
    }

    @Test("every saved event and every hostile fixture: the two readers agree")
    func savedFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var outcomes: [String: Agreement] = [:]
        for folder in ["examples/events", "Tests/QuoteWorkerTests/Fixtures/hostile"] {
            let directory = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".json") {
                let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
                outcomes[name] = Self.compare(bytes, key: nil)
            }
        }
        #expect(outcomes.count >= 26)
        for (name, outcome) in outcomes.sorted(by: { $0.key < $1.key }) {
            if case .disagree(let why) = outcome { Issue.record("\(name): \(why)") }
        }
        #expect(outcomes["contract-example.json"] == .scanned)
        #expect(outcomes["sheet-opened-partial-address.json"] == .scanned)
        #expect(outcomes["not_json--duplicate-key.json"] == .passedOnAndRefused)
        #expect(outcomes["invalid_field--sequence-minus-zero.json"] == .passedOnAndRefused)
    }

    @Test("every prefix of the example is refused by both")
    func truncations() {
        let bytes = ContractFixtures.exampleBytes
        for length in 0..<bytes.count where !bytes[..<length].allSatisfy({ $0 == 0x20 || $0 == 0x0A }) || length == 0 {
            let outcome = Self.compare(Array(bytes[..<length]))
            #expect(outcome == .passedOnAndRefused, "prefix of \(length) bytes: \(outcome)")
        }
    }

    /// Every byte of the compact example replaced, in turn, by bytes that matter to JSON, to
    /// UTF-8 or to the contract's text rules: the readers agree on each of the variants.
    @Test("one byte changed anywhere in the event: the readers agree on every variant")
    func singleByteMutations() throws {
        let event = try ContractFixtures.decode(ContractFixtures.exampleBytes).get()
        let bytes = event.encode()
        let replacements: [UInt8] = [0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x30, 0x31, 0x39, 0x2D, 0x2E, 0x65,
                                     0x20, 0x09, 0x00, 0x1F, 0x7F, 0xC2, 0xFF, 0x61, 0x41, 0x6E]
        var counts: [String: Int] = [:]
        for index in bytes.indices {
            for replacement in replacements where replacement != bytes[index] {
                var variant = bytes
                variant[index] = replacement
                let outcome = Self.compare(variant)
                switch outcome {
                case .disagree(let why): Issue.record("byte \(index) → \(replacement): \(why)")
                case .scanned: counts["scanned", default: 0] += 1
                case .passedOnAndRead: counts["read", default: 0] += 1
                case .passedOnAndRefused: counts["refused", default: 0] += 1
                }
            }
        }
        // Labels and ids take most letters and digits, so many variants are still valid events
        // and the scanner must have read those; most breaks must have been refused by both.
        #expect(counts["scanned", default: 0] > 1_000)
        #expect(counts["refused", default: 0] > 5_000)
    }

    @Test("a number with a leading zero is not JSON: both refuse it, wherever a whole number is read")
    func leadingZeros() throws {
        let example = String(decoding: ContractFixtures.exampleBytes, as: UTF8.self)
        // The example's values: version 1, sequence 7, quantity 2. Zero breaks a rule of each (the
        // control: valid JSON, refused by both for the rule); the others are not JSON.
        for (member, value) in [("\"version\": ", "1"), ("\"sequence\": ", "7"), ("\"quantity\": ", "2")] {
            let range = try #require(example.range(of: member + value))
            for literal in ["0", "00", "01", "012", "0" + value] {
                var text = example
                text.replaceSubrange(range, with: member + literal)
                #expect(Self.compare(Array(text.utf8)) == .passedOnAndRefused, "\(member)\(literal)")
            }
            // For contrast, a valid two-digit value is scanned (a version of 11 is refused by rule).
            var text = example
            text.replaceSubrange(range, with: member + "1" + value)
            #expect(Self.compare(Array(text.utf8)) == (value == "1" ? .passedOnAndRefused : .scanned), "\(member)1\(value)")
        }
    }

    @Test("a run of bytes is taken only where it comes next exactly, whatever its length and wherever the input ends")
    func exactRuns() {
        let runs: [StaticString] = ["}", "]}", #"{"x"#, #""id""#, #""id":"#, #"{"id":"#, #"{"id":""#, #","cart":"#, #","label":"#,
                                    #","amount":"#, #"{"version":"#, #","sequence":"#, #"{"currency":""#, #","session_id":"#,
                                    #","unit_amount":"#, #","tax_category":"#, #","dimensions_mm":"#, #","shipping_address":"#,
                                    #","payment_method_type":"#, #","trigger":"address_changed""#,
                                    #","selected_shipping_method_id":"#, #","selected_shipping_method_id":""#]
        /// Whether the cursor, `skipped` bytes into `bytes`, took `run`, and where it was after.
        func take(_ run: StaticString, in bytes: [UInt8], from skipped: Int) -> (taken: Bool, offset: Int) {
            bytes.withUnsafeBufferPointer { input in
                var cursor = JSONTokenCursor(input)
                cursor.skip(skipped)
                let taken = cursor.take(exactly: run)
                return (taken, cursor.offset)
            }
        }
        #expect(Set(runs.map(\.utf8CodeUnitCount)) == Set(1...17).union([20, 23, 28, 31, 32]))
        for run in runs {
            let bytes = Array(UnsafeBufferPointer(start: run.utf8Start, count: run.utf8CodeUnitCount))
            for before in [[], Array("ab".utf8)] {
                for after in [[], Array("x".utf8), Array(repeating: UInt8(ascii: "y"), count: 40)] {
                    #expect(take(run, in: before + bytes + after, from: before.count) == (true, before.count + bytes.count), "\(run)")
                }
                // One byte short of the run, at the input's end: not taken, and nothing loaded past it.
                #expect(take(run, in: before + bytes.dropLast(), from: before.count) == (false, before.count), "\(run)")
                for k in bytes.indices {
                    var changed = bytes
                    changed[k] ^= 0x20
                    #expect(take(run, in: before + changed + bytes, from: before.count) == (false, before.count), "\(run) byte \(k)")
                }
            }
        }
    }

    @Test("an event as compact JSON writes it is read the quick way, its optional members there or not; any other shape from the start, member by member, to the same answer")
    func compactEvents() throws {
        /// Whether the quick way read the whole document.
        func quick(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { input in
                var cursor = JSONTokenCursor(input)
                var raw = RawEvent()
                var alone = NoCarts()
                return raw.readCompact(&cursor, session: nil, carts: &alone) && cursor.atEnd()
            }
        }
        let full = try ContractFixtures.decode(ContractFixtures.exampleBytes).get()
        var bare = full
        (bare.eventID, bare.merchant, bare.selectedShippingMethodID, bare.replyBy) = (nil, nil, nil, nil)
        var opened = bare
        opened.trigger = .sheetOpened
        opened.cart = Cart(items: full.cart.items, discounts: [], subtotal: Money(minorUnits: 5_000, currency: .usd))
        var empty = full
        empty.cart = Cart(items: [], discounts: [])
        for event in [full, bare, opened, empty] {
            #expect(quick(event.encode()))
            #expect(Self.compare(event.encode()) == .scanned)
        }
        let compact = String(decoding: full.encode(), as: UTF8.self)
        #expect(compact.hasPrefix(#"{"version":1,"event_id":"01JB3Y3T2J7Q9V6K0M8F4R2D1C","session_id":"#))
        // Read the general way, to the same event.
        for (original, other) in [(#"{"version":1,"#, #"{ "version":1,"#), (#""sequence":7"#, #""sequence" :7"#),
                                  (#""sequence":7,"merchant":"acme""#, #""merchant":"acme","sequence":7"#),
                                  (#""merchant":"acme","#, #""merchant" :"acme","#), (#""event_id":"#, #""event_id" :"#),
                                  // After the cart: the quick way gives up with the cart read, and starts over.
                                  (#""selected_shipping_method_id":"standard""#, #""selected_shipping_method_id" :"standard""#),
                                  (#""reply_by":"#, #""reply_by" :"#), (#""occurred_at":"#, #""occurred_at": "#)] {
            let text = compact.replacingOccurrences(of: original, with: other)
            #expect(text != compact && !quick(Array(text.utf8)), "\(other)")
            #expect(Self.compare(Array(text.utf8)) == .scanned, "\(other)")
        }
        // Passed on or refused, as the general way does.
        for (original, other) in [(#"{"version":1,"#, #"{"version":10,"#), (#"{"version":1,"#, #"{"version":1.0,"#),
                                  (#""address_changed""#, #""payment_authorized""#), (#""address_changed""#, #""address_changed ""#),
                                  (#""sequence":7"#, #""sequence":7,"sequence":7"#), (#""sequence":7"#, #""sequence":07"#),
                                  (#""merchant":"acme""#, #""merchant":"acme","extra":1"#),
                                  (#""cart":{"items":["#, #""cart":{"discounts":[],"items":["#),
                                  (#"}]},"selected_shipping_method_id""#, #"}],"items":[]},"selected_shipping_method_id""#)] {
            let text = compact.replacingOccurrences(of: original, with: other)
            #expect(text != compact && !quick(Array(text.utf8)), "\(other)")
            let outcome = Self.compare(Array(text.utf8))
            #expect(outcome == .passedOnAndRead || outcome == .passedOnAndRefused, "\(other): \(outcome)")
        }
        #expect(!quick(Array((compact.dropLast() + #","extra":1}"#).utf8)))
        // An optional member given as `null` is absent to the quick way too, as to the member walk
        // (a writer that spells out absent members would otherwise send every event the general way).
        for (original, other) in [(#""event_id":"01JB3Y3T2J7Q9V6K0M8F4R2D1C""#, #""event_id":null"#),
                                  (#""merchant":"acme""#, #""merchant":null"#),
                                  (#""selected_shipping_method_id":"standard""#, #""selected_shipping_method_id":null"#),
                                  (#""reply_by":"2026-10-10T12:00:25.000Z""#, #""reply_by": null"#),
                                  (#"}]},"selected_shipping_method_id""#, #"}],"subtotal":null},"selected_shipping_method_id""#)] {
            let text = compact.replacingOccurrences(of: original, with: other)
            #expect(text != compact && quick(Array(text.utf8)), "\(other)")
            #expect(Self.compare(Array(text.utf8)) == .scanned, "\(other)")
        }
        // A cart or a line in another shape is read the general way inside an event read the quick way.
        for (original, other) in [(#""cart":{"#, #""cart":{"subtotal":null,"#), (#""discounts":[{"#, #""discounts":[ {"#),
                                  (#""items":[{"id":"sku-1","label":"T-shirt""#, #""items":[{"label":"T-shirt","id":"sku-1""#)] {
            let text = compact.replacingOccurrences(of: original, with: other)
            #expect(text != compact && quick(Array(text.utf8)), "\(other)")
            #expect(Self.compare(Array(text.utf8)) == .scanned, "\(other)")
        }
    }

    @Test("an amount as compact JSON writes it is read at once; any other shape member by member, to the same answer")
    func compactAmounts() {
        func read(_ text: String) -> (currency: String, literal: String, rest: String)? {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { input in
                var cursor = JSONTokenCursor(input)
                guard let (code, literal, _) = cursor.compactAmount() else {
                    #expect(cursor.offset == 0 && cursor.onlyPrintableASCII, "\(text): nothing moved")
                    return nil
                }
                return (String(decoding: bytes[code], as: UTF8.self), String(decoding: bytes[literal], as: UTF8.self),
                        String(decoding: bytes[cursor.offset...], as: UTF8.self))
            }
        }
        #expect(read(#"{"currency":"USD","value":"25.00"},"x""#).map { [$0.currency, $0.literal, $0.rest] } == ["USD", "25.00", #","x""#])
        #expect(read(#"{"currency":"JPY","value":-5}]"#).map { [$0.currency, $0.literal, $0.rest] } == ["JPY", "-5", "]"])
        for other in [#"{"currency":"usd","value":"25.00"}"#, #"{"currency":"USD" ,"value":"25.00"}"#,
                      #"{"currency":"USD","value":"25.00" }"#, #"{"currency":"USD","value":null}"#,
                      #"{"currency":"USD","value":"2\u00355"}"#, #"{"currency":"USD","value":"25.00","x":1}"#,
                      #"{"value":"25.00","currency":"USD"}"#, #"{"currency":"USDX","value":"1"}"#,
                      #"{"currency":"USD","value":01}"#, #"{"currency":"USD","value":"1"#] {
            #expect(read(other) == nil, "\(other)")
        }
        // The example as compact JSON, each of its amounts replaced by another spelling of one.
        let compact = String(decoding: JSONWriter.encode(try! JSONReader().read(ContractFixtures.exampleBytes)), as: UTF8.self)
        for original in [#"{"currency":"USD","value":25.00}"#, #"{"currency":"USD","value":-5.00}"#] {
            #expect(compact.contains(original))
            #expect(Self.compare(Array(compact.utf8)) == .scanned)
            for value in [#"{"currency":"USD","value":"25.000"}"#, #"{"currency":"USD","value":"25.5"}"#,
                          #"{"currency":"USD","value":"99999999999999.99"}"#, #"{"currency":"USD","value":"-0.00"}"#,
                          #"{"currency":"USD","value":"1.23456"}"#, #"{"currency":"USD","value":"025.00"}"#,
                          #"{"currency":"USD","value":"25.00x"}"#, #"{"currency":"USD","value":"25."}"#,
                          #"{ "currency": "USD", "value": "25.00" }"#, #"{"value":"25.00","currency":"USD"}"#,
                          #"{"currency":"USD","value":"25.00","currency":"USD"}"#, #"{"currency":"usd","value":"25.00"}"#,
                          #"{"currency":"USD","value":null}"#, #"{"currency":"USD","value":"-5.00"}"#, #"{"currency":"USD","value":-5.00}"#] {
                let outcome = Self.compare(Array(compact.replacingOccurrences(of: original, with: value).utf8))
                if case .disagree(let why) = outcome { Issue.record("\(original) as \(value): \(why)") }
            }
        }
    }

    @Test("an amount's string holding a plain decimal is valued as it is stepped over; any other value is left to be read later")
    func compactAmountsValuedOnTheWay() {
        func plain(_ text: String) -> [Int64]? {
            Array(text.utf8).withUnsafeBufferPointer { input in
                var cursor = JSONTokenCursor(input)
                guard let (_, literal, decimal) = cursor.compactAmount() else { return [-1] }
                #expect(cursor.offset == input.count)
                return decimal.map { [$0.digits, Int64($0.decimals), Int64(literal.lowerBound), Int64(literal.upperBound)] }
            }
        }
        #expect(plain(#"{"currency":"USD","value":"25.00"}"#) == [2_500, 2, 27, 32])
        #expect(plain(#"{"currency":"USD","value":"-5"}"#) == [-5, 0, 27, 29])
        #expect(plain(#"{"currency":"USD","value":25.00}"#) == nil)       // a number: valued when asked
        #expect(plain(#"{"currency":"USD","value":"25.00000"}"#) == nil)  // five decimals: the parser's
        #expect(plain(#"{"currency":"USD","value":"25 USD"}"#) == nil)
        #expect(plain(#"{"currency":"USD","value":"25.00"#) == [-1])      // unterminated: not read at all
        // Digits, a sign and a point leave the document's printable-ASCII verdict as it was.
        for printableBefore in [true, false] {
            let text = (printableBefore ? "" : "\"caf\u{E9}\"") + #"{"currency":"USD","value":"-25.00"}"#
            Array(text.utf8).withUnsafeBufferPointer { input in
                var cursor = JSONTokenCursor(input)
                if !printableBefore { #expect(cursor.string() != nil && !cursor.onlyPrintableASCII) }
                #expect(cursor.compactAmount()?.decimal?.digits == -2_500)
                #expect(cursor.onlyPrintableASCII == printableBefore && cursor.offset == input.count)
            }
        }
    }

    @Test("an address as compact JSON writes a whole one is read at once; any other shape member by member, to the same answer")
    func compactAddresses() throws {
        /// The address's texts (nil: absent), read the quick way or not, and where the cursor stopped.
        func read(_ text: String, compact: Bool) -> ([String?], rest: String)? {
            let bytes = Array((text + #","cart":{"items":[]}}"#).utf8)
            return bytes.withUnsafeBufferPointer { input in
                var cursor = JSONTokenCursor(input)
                let address = compact ? RawAddress(compact: &cursor) : RawAddress(&cursor)
                guard let address else {
                    if compact { #expect(cursor.offset == 0 && cursor.onlyPrintableASCII, "\(text): nothing moved") }
                    return nil
                }
                let texts = [address.city, address.state, address.postalCode, address.country].map { span in
                    span.map { String(decoding: bytes[$0.range], as: UTF8.self) }
                }
                return (texts, String(decoding: bytes[cursor.offset...], as: UTF8.self))
            }
        }
        let whole = #"{"city":"Cupertino","state":"CA","postal_code":"95014","country_code":"US"}"#
        let texts: [String?] = ["Cupertino", "CA", "95014", "US"]
        #expect(read(whole, compact: true)?.0 == texts)
        #expect(read(whole, compact: true)?.rest == #","cart":{"items":[]}}"#)
        #expect(read(whole, compact: false)?.0 == texts)
        #expect(read(#"{"city":"","state":"","postal_code":"","country_code":""}"#, compact: true)?.0 == ["", "", "", ""])
        // Other shapes: the quick way gives up without moving, and the member walk reads what is there.
        let others: [(String, [String?]?)] = [
            (#"{"state":"CA","city":"Cupertino","postal_code":"95014","country_code":"US"}"#, texts),
            (#"{"city":"Cupertino","postal_code":"95014","country_code":"US"}"#, ["Cupertino", nil, "95014", "US"]),
            (#"{"city":null,"state":"CA","postal_code":"95014","country_code":"US"}"#, [nil, "CA", "95014", "US"]),
            (#"{ "city":"Cupertino","state":"CA","postal_code":"95014","country_code":"US"}"#, texts),
            (#"{"city" :"Cupertino","state":"CA","postal_code":"95014","country_code":"US"}"#, texts),
            (#"{"city":"Cupertino","state":"CA","postal_code":"95014","country_code":"US","city":"X"}"#, nil),
            (#"{"city":"Cupertino","state":"CA","postal_code":"95014","country_code":"US","street":"X"}"#, nil),
            (#"{"city":"Cupertino","state":"CA","postal_code":"95014","country_code":7}"#, nil),
            (#"{"city":"Cupertino","state":"CA","postal_code":"95014","country_code":"U\u0053"}"#, nil),
            (#"{"city":"Cupertino","state":"CA","postal_code":"95014","country":"US"}"#, nil),
            (#"{"city":"Cupertino","state":"CA","postal_code":"95014","country_code":"US""#, nil),
        ]
        for (text, expected) in others {
            #expect(read(text, compact: true) == nil, "\(text)")
            #expect(read(text, compact: false)?.0 == expected, "\(text)")
        }
        // Spaces before the closing brace are still the quick way's: a brace after whitespace is taken.
        #expect(read(#"{"city":"Cupertino","state":"CA","postal_code":"95014","country_code":"US" }"#, compact: true)?.0 == texts)
    }

    @Test("an item or a discount as compact JSON writes it is read the quick way; any other shape member by member, to the same answer")
    func compactLines() {
        /// What a line holds, as text (absent: "-"); nil when the reading gave up.
        func read(_ text: String, item: Bool, quick: Bool) -> [String]? {
            let bytes = Array((text + "]}").utf8)
            return bytes.withUnsafeBufferPointer { input -> [String]? in
                var cursor = JSONTokenCursor(input)
                var line = RawLine()
                if quick {
                    guard item ? line.readCompactItem(&cursor) : line.readCompactDiscount(&cursor) else {
                        #expect(cursor.offset == 0 && cursor.onlyPrintableASCII, "\(text): nothing moved")
                        return nil
                    }
                } else {
                    guard line.read(&cursor, isItem: item) else { return nil }
                }
                #expect(String(decoding: bytes[cursor.offset...], as: UTF8.self) == "]}", "\(text): the whole line read")
                func show(_ span: ByteSpan?) -> String { span.map { String(decoding: bytes[$0.range], as: UTF8.self) } ?? "-" }
                let size = line.dimensions.map { "\($0.length)x\($0.width)x\($0.height)" } ?? "-"
                return [show(line.id), show(line.label), line.quantity.map(String.init) ?? "-", show(line.amount?.currency),
                        show(line.amount?.literal), show(line.taxCategory), line.weightGrams.map(String.init) ?? "-",
                        show(line.shippingClass), size]
            }
        }
        let head = #"{"id":"sku-1","label":"T-shirt","quantity":2,"unit_amount":{"currency":"USD","value":"25.00"}"#
        let base = ["sku-1", "T-shirt", "2", "USD", "25.00"]
        let compact: [(String, [String])] = [
            (head + "}", base + ["-", "-", "-", "-"]),
            (head + " }", base + ["-", "-", "-", "-"]),   // a brace after whitespace is still taken
            (head + #","tax_category":"apparel"}"#, base + ["apparel", "-", "-", "-"]),
            (head + #","weight_grams":300}"#, base + ["-", "300", "-", "-"]),
            (head + #","tax_category":"apparel","weight_grams":300,"shipping_class":"bulky","dimensions_mm":{"length":1,"width":2,"height":3}}"#,
             base + ["apparel", "300", "bulky", "1x2x3"]),
            (#"{"id":"sku-1","label":"T-shirt","quantity":2,"unit_amount":{ "currency":"USD","value":25}}"#,
             ["sku-1", "T-shirt", "2", "USD", "25", "-", "-", "-", "-"]),
        ]
        for (text, expected) in compact {
            #expect(read(text, item: true, quick: true) == expected, "\(text)")
            #expect(read(text, item: true, quick: false) == expected, "\(text)")
        }
        // Other shapes: the quick way gives up without moving, and the member walk reads what is there.
        let others: [(String, [String]?)] = [
            (#"{"label":"T-shirt","id":"sku-1","quantity":2,"unit_amount":{"currency":"USD","value":"25.00"}}"#, base + ["-", "-", "-", "-"]),
            (head + #","weight_grams":300,"tax_category":"apparel"}"#, base + ["apparel", "300", "-", "-"]),
            (head + #","tax_category":null}"#, base + ["-", "-", "-", "-"]),
            (head + #","tax_category":"a","tax_category":"b"}"#, nil),
            (head + #","color":"red"}"#, nil),
            (head + #","weight_grams":"300"}"#, nil),
            (#"{"id":"sku-1","label":"T-shirt","quantity":2}"#, ["sku-1", "T-shirt", "2", "-", "-", "-", "-", "-", "-"]),
            (#"{"id":"sku-1","label":"T-shirt","quantity":2.5,"unit_amount":{"currency":"USD","value":"25.00"}}"#, nil),
        ]
        for (text, expected) in others {
            #expect(read(text, item: true, quick: true) == nil, "\(text)")
            #expect(read(text, item: true, quick: false) == expected, "\(text)")
        }
        let discount = #"{"id":"promo","label":"Promo","amount":{"currency":"USD","value":"-5.00"}}"#
        let promo = ["promo", "Promo", "-", "USD", "-5.00", "-", "-", "-", "-"]
        #expect(read(discount, item: false, quick: true) == promo)
        #expect(read(discount, item: false, quick: false) == promo)
        for (text, expected) in [(#"{"label":"Promo","id":"promo","amount":{"currency":"USD","value":"-5.00"}}"#, promo),
                                 (#"{"id":"promo","label":"Promo","amount":{"currency":"USD","value":"-5.00"},"x":1}"#, nil),
                                 (#"{"id":"promo","label":null,"amount":{"currency":"USD","value":"-5.00"}}"#,
                                  ["promo", "-", "-", "USD", "-5.00", "-", "-", "-", "-"])] as [(String, [String]?)] {
            #expect(read(text, item: false, quick: true) == nil, "\(text)")
            #expect(read(text, item: false, quick: false) == expected, "\(text)")
        }
    }

    @Test("values at the edges of each rule: the readers agree", arguments: [
        ("sequence", JSONValue.number("0")), ("sequence", .number("9223372036854775807")), ("sequence", .number("9223372036854775808")),
        ("sequence", .number("1.0")), ("sequence", .number("1e2")), ("sequence", .number("-3")), ("sequence", .number("-0")), ("sequence", .number("3E1")), ("sequence", .number("999999999999999999")),
        ("sequence", .number("1000000000000000000")), ("sequence", .number("99999999999999999999")),
        ("version", .number("1e0")), ("cart.items[0].weight_grams", .number("0")), ("cart.items[0].quantity", .number("2.0")), ("sequence", .string("7")), ("version", .number("1.0")),
        ("version", .number("2")), ("session_id", .string("")), ("session_id", .string(String(repeating: "é", count: 128))),
        ("session_id", .string(String(repeating: "x", count: 129))), ("event_id", .null), ("event_id", .string("a\u{7F}b")),
        ("event_id", .string("a\u{85}b")), ("merchant", .string("")), ("currency", .string("XXX")), ("currency", .string("JPY")),
        ("trigger", .string("address_Changed")), ("shipping_address.country_code", .string("us")),
        ("shipping_address.country_code", .string("USA")), ("shipping_address.city", .null), ("shipping_address", .null),
        ("cart.items[0].quantity", .number("1000000")), ("cart.items[0].quantity", .number("1000001")),
        ("cart.items[0].quantity", .number("0")), ("cart.items[0].unit_amount.value", .number("25.001")),
        ("cart.items[0].unit_amount.value", .string("25.10")), ("cart.items[0].unit_amount.value", .number("2.5e1")),
        ("cart.items[0].unit_amount.value", .number("-1")), ("cart.items[0].unit_amount.value", .string(" 25")),
        // Integer parts far beyond Int64: the quick reading of an amount stops at 15 digits (it
        // multiplied on to 20 and trapped, taking the worker down with it) and the parser refuses them.
        ("cart.items[0].unit_amount.value", .number("123456789012345678901234")),
        ("cart.items[0].unit_amount.value", .string(String(repeating: "9", count: 70))),
        ("cart.discounts[0].amount.value", .number("-99999999999999999999.99")), ("cart.subtotal", amount("USD", .number("99999999999999999999"))),
        ("cart.items[0].unit_amount.currency", .string("EUR")), ("cart.items[0].weight_grams", .number("-0")),
        ("cart.items[0].weight_grams", .number("1000000001")), ("cart.items[0].label", .string("T\u{9F}shirt")),
        ("cart.items[0].tax_category", .string("")), ("cart.discounts[0].amount.value", .number("5.00")),
        ("cart.discounts[0].amount.value", .number("0")), ("cart.subtotal", amount("USD", .number("50.00"))),
        ("cart.subtotal", amount("USD", .number("49.99"))), ("cart.items", .null), ("cart.items", .array([])), ("cart.discounts", .object(JSONObject())),
        ("occurred_at", .string("2026-10-10T12:00:00+02:00")), ("occurred_at", .string("2026-02-30T12:00:00Z")),
        ("reply_by", .string("2026-10-10 12:00:25Z")), ("selected_shipping_method_id", .string("")),
        ("cart.items[0].shipping_class", .string("")), ("cart.items[0].shipping_class", .string(String(repeating: "b", count: 64))),
        ("cart.items[0].shipping_class", .string(String(repeating: "b", count: 65))),
        ("cart.items[0].shipping_class", .string(String(repeating: "電", count: 64))),
        ("cart.items[0].shipping_class", .string(String(repeating: "電", count: 65))),
        ("cart.items[0].shipping_class", .string("bat\u{85}tery")), ("cart.items[0].shipping_class", .number("1")),
        ("cart.items[0].dimensions_mm", size(0, 0, 0)), ("cart.items[0].dimensions_mm", size(100_000, 100_000, 100_000)),
        ("cart.items[0].dimensions_mm", size(100_001, 1, 1)), ("cart.items[0].dimensions_mm", size(1, "-1", 1)),
        ("cart.items[0].dimensions_mm", size(1, 1, "-0")), ("cart.items[0].dimensions_mm", size(1, 1, "1.0")),
        ("cart.items[0].dimensions_mm", size(1, 1, "99999999999999999999")),
        ("cart.items[0].dimensions_mm", .object(JSONObject(["length": .number("1"), "width": .number("1")]))),
        ("cart.items[0].dimensions_mm", .object(JSONObject(["length": .number("1"), "width": .number("1"), "height": .null]))),
        ("cart.items[0].dimensions_mm", .object(JSONObject(["length": .number("1"), "width": .number("1"), "height": .number("1"),
                                                            "depth": .number("1")]))),
        ("cart.items[0].dimensions_mm", .null), ("cart.items[0].dimensions_mm", .array([])),
    ])
    func edges(path: String, value: JSONValue) {
        let outcome = Self.compare(ContractFixtures.example(setting: path, to: value))
        if case .disagree(let why) = outcome { Issue.record("\(path): \(why)") }
    }
}
