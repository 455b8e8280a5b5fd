/// Why an event (or a reply) was refused, in the words of the DLQ `error-code` header.
public enum RejectionCode: String, Sendable, Hashable, CaseIterable {
    /// Not JSON at all: a syntax error, invalid UTF-8, a duplicate key, trailing bytes.
    case notJSON = "not_json"
    /// Larger than 1 MiB; refused before parsing.
    case tooLarge = "too_large"
    /// Arrays and objects nested deeper than the reader's limit (64).
    case tooDeep = "too_deep"
    /// `version` is a number other than 1.
    case unsupportedVersion = "unsupported_version"
    /// `session_id` differs from the Kafka message key (or the message has no key).
    case keyMismatch = "key_mismatch"
    /// A required field is absent or null.
    case missingField = "missing_field"
    /// A field has the wrong type, form or value.
    case invalidField = "invalid_field"
    /// `trigger` is text naming no trigger this version knows (contract 1.1; a later minor version
    /// may add one, which workers deployed before it dead-letter with this code).
    case unsupportedTrigger = "unsupported_trigger"
    /// An amount in another currency than the event's `currency`.
    case currencyMismatch = "currency_mismatch"
    /// Beyond a count or magnitude limit: 100 cart lines, 100 discounts, quantities, amounts.
    case overLimit = "over_limit"
}
