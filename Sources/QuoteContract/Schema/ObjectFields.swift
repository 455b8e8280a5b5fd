/// Typed access to the members of a contract object. A member that is absent and one that is
/// `null` mean the same everywhere in the contract; members nobody asks for are ignored.
extension JSONObject {
    /// The value under `key` unless it is absent or null.
    func present(_ key: String) -> JSONValue? {
        for member in members where member.key == key {
            if case .null = member.value { return nil }
            return member.value
        }
        return nil
    }

    func requiredValue(_ key: String) throws(FieldFailure) -> JSONValue {
        guard let value = present(key) else { throw FieldFailure(.missingField, key, "is required") }
        return value
    }

    func requiredString(_ key: String) throws(FieldFailure) -> String {
        guard case .string(let text) = try requiredValue(key) else { throw FieldFailure(.invalidField, key, "must be a string") }
        return text
    }

    func optionalString(_ key: String) throws(FieldFailure) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let text) = value else { throw FieldFailure(.invalidField, key, "must be a string or null") }
        return text
    }

    func requiredObject(_ key: String) throws(FieldFailure) -> JSONObject {
        guard case .object(let object) = try requiredValue(key) else { throw FieldFailure(.invalidField, key, "must be an object") }
        return object
    }

    /// An array member; absent or null reads as empty.
    func optionalArray(_ key: String, maxCount: Int) throws(FieldFailure) -> [JSONValue] {
        guard let value = present(key) else { return [] }
        guard case .array(let elements) = value else { throw FieldFailure(.invalidField, key, "must be an array") }
        guard elements.count <= maxCount else { throw FieldFailure(.overLimit, key, "must have at most \(maxCount) entries") }
        return elements
    }

    func requiredArray(_ key: String, maxCount: Int) throws(FieldFailure) -> [JSONValue] {
        _ = try requiredValue(key)
        return try optionalArray(key, maxCount: maxCount)
    }

    /// An integer written without fraction or exponent (`7`, not `7.0` or `7e0`), within `range`.
    func requiredInteger(_ key: String, in range: ClosedRange<Int64>) throws(FieldFailure) -> Int64 {
        try FieldText.integer(try requiredValue(key), key, in: range)
    }

    func optionalInteger(_ key: String, in range: ClosedRange<Int64>) throws(FieldFailure) -> Int64? {
        guard let value = present(key) else { return nil }
        return try FieldText.integer(value, key, in: range)
    }
}

/// Rules on the text of fields.
enum FieldText {
    static func integer(_ value: JSONValue, _ key: String, in range: ClosedRange<Int64>) throws(FieldFailure) -> Int64 {
        // Built only on failure: reading a valid integer must not pay for the words.
        func expected() -> String { "must be an integer from \(range.lowerBound) to \(range.upperBound) without fraction or exponent" }
        guard case .number(let literal) = value else { throw FieldFailure(.invalidField, key, expected()) }
        // JSONReader has checked the grammar; Int64(_:) refuses fractions, exponents and overflow.
        guard let integer = Int64(literal) else {
            let isWhole = !literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
            throw FieldFailure(isWhole ? .overLimit : .invalidField, key, expected())
        }
        guard range.contains(integer) else {
            throw FieldFailure(integer > range.upperBound ? .overLimit : .invalidField, key, expected())
        }
        return integer
    }

    /// Whether `text` holds a C0 or C1 control character (U+0000–001F, U+007F–009F): never
    /// wanted in a label, an id or a header.
    static func hasControlCharacter(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            // C1 controls are U+0080–009F, encoded C2 80 … C2 9F.
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte <= 0x9F && byte >= 0x80) { return true }
            previous = byte
        }
        return false
    }

    /// An identifier: 1…`maxLength` Unicode scalars, no control characters.
    static func identifier(_ text: String, _ key: String, maxLength: Int) throws(FieldFailure) -> String {
        func detail() -> String {
            maxLength == .max ? "must be a non-empty string without control characters"
                              : "must be 1 to \(maxLength) characters without control characters"
        }
        guard !text.isEmpty else { throw FieldFailure(.invalidField, key, detail()) }
        guard text.utf8.count <= maxLength || text.unicodeScalars.count <= maxLength else {
            throw FieldFailure(.invalidField, key, detail())
        }
        guard !hasControlCharacter(text) else { throw FieldFailure(.invalidField, key, detail()) }
        return text
    }

    /// A text shown to people: any length, no control characters.
    static func label(_ text: String, _ key: String) throws(FieldFailure) -> String {
        guard !hasControlCharacter(text) else { throw FieldFailure(.invalidField, key, "must not contain control characters") }
        return text
    }
}
