import ShippingRules

/// `FieldText`'s rules for ids and labels, as yes or no. In a plain document (every string
/// printable ASCII) no text can hold a control character and a character is a byte, so an id
/// only needs a length.
enum TextRule {
    static func isIdentifier(_ text: String, maxLength: Int = .max, plain: Bool) -> Bool {
        if plain { return !text.isEmpty && text.utf8.count <= maxLength }
        return (try? FieldText.identifier(text, "", maxLength: maxLength)) != nil
    }

    static func isLabel(_ text: String, plain: Bool) -> Bool { plain || !FieldText.hasControlCharacter(text) }
}

extension JSONTokenCursor {
    /// A string's content as text: for a plain document without a check (printable ASCII is
    /// valid UTF-8), otherwise validated; nil when it is not valid UTF-8.
    func text(_ range: Range<Int>, plain: Bool) -> String? {
        guard plain else { return String(validating: slice(range), as: UTF8.self) }
        let bytes = slice(range)
        return String(unsafeUninitializedCapacity: bytes.count) { out in
            _ = out.initialize(fromContentsOf: bytes)
            return bytes.count
        }
    }
}
