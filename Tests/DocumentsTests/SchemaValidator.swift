import Foundation
import QuoteContract

/// A JSON Schema (2020-12) validator for the subset our schemas use: type, enum, required,
/// properties, additionalProperties, items, minItems/maxItems, minimum/maximum, minLength/maxLength,
/// pattern, anyOf, if/then and `$ref` to `#/$defs/...`. A keyword outside the subset is an error, never
/// skipped, so a schema cannot quietly say more than is checked.
///
/// Why not Python's jsonschema: it would make `make test` download from PyPI on a fresh machine;
/// this subset is small, exact (numbers are compared from their literal text) and runs offline.
struct SchemaValidator {
    let root: JSONObject

    static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$defs", "examples", "$comment"]
    static let keywords: Set<String> = ["type", "enum", "required", "properties", "additionalProperties", "items",
                                        "minItems", "maxItems", "minimum", "maximum", "minLength", "maxLength",
                                        "pattern", "anyOf", "if", "then", "$ref"]

    init(_ schema: JSONValue) throws {
        guard case .object(let root) = schema else { throw SchemaProblem(path: "schema", message: "must be an object") }
        self.root = root
    }

    /// The failures, each with the JSON path of the value; empty when the document is valid.
    func validate(_ value: JSONValue) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        check(value, against: .object(root), at: "$", into: &problems)
        return problems
    }

    private func resolve(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#/$defs/"), case .object(let defs)? = root["$defs"] else { return nil }
        return defs[String(ref.dropFirst("#/$defs/".count))]
    }

    private func check(_ value: JSONValue, against schema: JSONValue, at path: String, into problems: inout [SchemaProblem]) {
        func fail(_ message: String) { problems.append(SchemaProblem(path: path, message: message)) }
        guard case .object(let s) = schema else { return fail("schema here is not an object") }
        for key in s.keys where !Self.keywords.contains(key) && !Self.annotations.contains(key) {
            fail("the schema uses \(key), which this validator does not check")
        }
        if case .string(let ref)? = s["$ref"] {
            guard let target = resolve(ref) else { return fail("unresolvable $ref \(ref)") }
            check(value, against: target, at: path, into: &problems)
        }
        if case .array(let types)? = s["type"] {
            let names = types.compactMap { if case .string(let t) = $0 { t } else { nil } }
            if !names.contains(where: { Self.matches(value, type: $0) }) { fail("must be \(names.joined(separator: " or "))") }
        } else if case .string(let type)? = s["type"], !Self.matches(value, type: type) {
            fail("must be \(type)")
        }
        if case .array(let options)? = s["enum"], !options.contains(where: { Self.equal($0, value) }) {
            fail("must be one of \(options.map { String(decoding: JSONWriter.encode($0), as: UTF8.self) })")
        }
        if case .array(let alternatives)? = s["anyOf"] {
            let anyValid = alternatives.contains { alternative in
                var inner: [SchemaProblem] = []
                check(value, against: alternative, at: path, into: &inner)
                return inner.isEmpty
            }
            if !anyValid { fail("matches none of anyOf") }
        }
        // `then` applies where `if` holds (a subschema without problems); `if` alone says nothing.
        if let condition = s["if"] {
            var inner: [SchemaProblem] = []
            check(value, against: condition, at: path, into: &inner)
            if inner.isEmpty, let then = s["then"] { check(value, against: then, at: path, into: &problems) }
        } else if s["then"] != nil {
            fail("then without if")
        }
        switch value {
        case .object(let object):
            if case .array(let required)? = s["required"] {
                for case .string(let key) in required where object[key] == nil { fail("lacks required member \(key)") }
            }
            let properties: JSONObject? = if case .object(let p)? = s["properties"] { p } else { nil }
            for member in object.members {
                if let property = properties?[member.key] {
                    check(member.value, against: property, at: "\(path).\(member.key)", into: &problems)
                } else if case .bool(false)? = s["additionalProperties"] {
                    fail("has \(member.key), which the schema does not allow")
                } else if let extra = s["additionalProperties"], case .object = extra {
                    check(member.value, against: extra, at: "\(path).\(member.key)", into: &problems)
                }
            }
        case .array(let elements):
            if let min = Self.integer(s["minItems"]), elements.count < min { fail("must have at least \(min) entries") }
            if let max = Self.integer(s["maxItems"]), elements.count > max { fail("must have at most \(max) entries") }
            if let items = s["items"] {
                for (i, element) in elements.enumerated() { check(element, against: items, at: "\(path)[\(i)]", into: &problems) }
            }
        case .string(let text):
            if let min = Self.integer(s["minLength"]), text.count < min { fail("must be at least \(min) characters") }
            if let max = Self.integer(s["maxLength"]), text.count > max { fail("must be at most \(max) characters") }
            if case .string(let pattern)? = s["pattern"] {
                let regex = try! NSRegularExpression(pattern: pattern)
                let range = NSRange(text.startIndex..., in: text)
                if regex.firstMatch(in: text, range: range) == nil { fail("must match \(pattern)") }
            }
        case .number(let literal):
            let n = Decimal(string: literal)
            if case .number(let min)? = s["minimum"], let n, let m = Decimal(string: min), n < m { fail("must be at least \(min)") }
            if case .number(let max)? = s["maximum"], let n, let m = Decimal(string: max), n > m { fail("must be at most \(max)") }
        case .null, .bool:
            break
        }
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("null", .null), ("boolean", .bool), ("number", .number):
            true
        case ("integer", .number(let literal)):
            !literal.contains(".") && !literal.lowercased().contains("e")
        default:
            false
        }
    }

    /// Numbers compare by value (`1` and `1.0`), everything else structurally.
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if case .number(let x) = a, case .number(let y) = b { return Decimal(string: x) == Decimal(string: y) }
        return a == b
    }

    static func integer(_ value: JSONValue?) -> Int? { if case .number(let n)? = value { Int(n) } else { nil } }
}

struct SchemaProblem: Error, Equatable, CustomStringConvertible {
    let path: String
    let message: String
    var description: String { "\(path): \(message)" }
}
