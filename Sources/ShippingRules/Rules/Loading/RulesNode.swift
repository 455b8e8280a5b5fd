import Foundation

/// A node of a rules file together with where it sits (file, field path): everything the
/// loader reads goes through here, so every error can name file, line, column and field.
struct RulesNode {
    let node: YAMLNode
    let file: String
    /// The path of the list holding this node, with `index`; or the node's own path when `index` is nil.
    private let base: String
    private let index: Int?
    /// Where errors that need not stop the loader are recorded (unknown keys, say).
    let log: RulesDiagnostics

    init(node: YAMLNode, file: String, path: String, log: RulesDiagnostics) {
        self.init(node: node, file: file, base: path, index: nil, log: log)
    }

    private init(node: YAMLNode, file: String, base: String, index: Int?, log: RulesDiagnostics) {
        self.node = node
        self.file = file
        self.base = base
        self.index = index
        self.log = log
    }

    /// The field path, like `shipping_methods[1].price`: made when asked (for a message), since a
    /// list of 400,000 postal codes should not build 400,000 paths nobody reads.
    var path: String { index.map { "\(base)[\($0)]" } ?? base }

    var mark: SourceMark { node.mark }

    /// Keys a merchant might reach for to match on street lines, which no quote ever sees.
    static let streetKeys: Set<String> = [
        "street", "streets", "street_lines", "street_line", "address_line", "address_lines", "line1", "line2",
        "address1", "address2", "exclude_streets",
    ]

    func error(_ kind: RulesError.Kind = .invalidValue, _ message: String) -> RulesError {
        RulesError(kind: kind, file: file, mark: mark, field: path, message: message)
    }

    func expected(_ what: String) -> RulesError {
        error(.invalidValue, "expected \(what), found \(node.shortDescription)")
    }

    var isNull: Bool {
        if case .scalar(let s) = node { return s.isNull }
        return false
    }

    func child(_ key: String, _ node: YAMLNode) -> RulesNode {
        RulesNode(node: node, file: file, path: path.isEmpty ? key : "\(path).\(key)", log: log)
    }

    // MARK: Shapes

    /// A mapping whose keys must all be among `keys`: unknown keys are errors, so typos never pass.
    /// Each unknown key is recorded in the log and left out, so the rest of the mapping is still checked.
    func mapping(_ what: String, keys: Set<String>) throws(RulesError) -> RulesMapping {
        guard case .mapping(var pairs, _) = node else { throw expected(what) }
        var misspelt: Set<String> = []
        for pair in pairs where !keys.contains(pair.key.text) {
            var message = "unknown key '\(pair.key.text)'"
            if Self.streetKeys.contains(pair.key.text.lowercased()) {
                message += "; street lines never reach ShipQuote (the wallet withholds them until the customer pays), "
                    + "so a rule cannot use them: match on postal_codes, cities or states instead"
            } else if let near = Spelling.nearest(to: pair.key.text, among: keys) {
                message += "; did you mean '\(near)'?"
                misspelt.insert(near)
            } else { message += "; expected one of \(keys.sorted().joined(separator: ", "))" }
            log.record(RulesError(kind: .unknownKey, file: file, mark: pair.key.mark,
                                  field: path.isEmpty ? pair.key.text : "\(path).\(pair.key.text)", message: message))
        }
        if pairs.contains(where: { !keys.contains($0.key.text) }) { pairs.removeAll { !keys.contains($0.key.text) } }
        return RulesMapping(owner: self, pairs: pairs, misspelt: misspelt)
    }

    /// A list; a single scalar also reads as a list of one, so `states: CA` works like `[CA]`.
    func list() throws(RulesError) -> [RulesNode] {
        switch node {
        case .sequence(let items, _):
            let path = self.path
            return items.enumerated().map { RulesNode(node: $1, file: file, base: path, index: $0, log: log) }
        case .scalar(let s) where !s.isNull:
            return [self]
        default:
            throw expected("a list")
        }
    }

    func stringList(_ what: String = "a name") throws(RulesError) -> [String] {
        try list().map { (item) throws(RulesError) -> String in try item.string(what) }
    }

    // MARK: Scalars

    func string(_ what: String = "a text") throws(RulesError) -> String {
        guard case .scalar(let s) = node, !s.isNull else { throw expected(what) }
        return s.text
    }

    func nonEmptyString(_ what: String) throws(RulesError) -> String {
        let text = try string(what)
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw expected(what) }
        return text
    }

    func int(_ what: String, in range: ClosedRange<Int>) throws(RulesError) -> Int {
        let text = try string(what)
        guard let value = Int(text), text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) else { throw expected(what) }
        guard range.contains(value) else {
            throw error(.invalidValue, "expected \(what) from \(range.lowerBound) to \(range.upperBound), found \(value)")
        }
        return value
    }

    func bool() throws(RulesError) -> Bool {
        switch try string("true or false") {
        case "true", "True", "TRUE", "yes": return true
        case "false", "False", "FALSE", "no": return false
        default: throw expected("true or false")
        }
    }

    /// A decimal read exactly from the scalar's text.
    func decimal(_ what: String = "a decimal amount like 5.00") throws(RulesError) -> ExactDecimal {
        let text = try string(what)
        guard let value = try? ExactDecimal(parsing: text.trimmingCharacters(in: .whitespaces)) else { throw expected(what) }
        return value
    }

    /// A percentage written `7.25%` (or a bare `7.25`), kept as the percent figure.
    func rate() throws(RulesError) -> ExactDecimal {
        let what = "a rate like 7.25%"
        var text = try string(what).trimmingCharacters(in: .whitespaces)
        let percentSign = text.hasSuffix("%")
        if percentSign { text.removeLast(); text = text.trimmingCharacters(in: .whitespaces) }
        guard let value = try? ExactDecimal(parsing: text) else { throw expected(what) }
        guard !value.isNegative, value <= ExactDecimal(100) else {
            throw error(.invalidValue, "expected a rate from 0% to 100%, found \(node.shortDescription)")
        }
        guard value.scale <= 6 else { throw error(.invalidValue, "a rate carries at most 6 decimals, found \(node.shortDescription)") }
        // 0.0725 is 0.0725 %, most likely a fraction meant as 7.25 %; written 0.0725% it is taken as meant.
        if !percentSign, value.significand != 0, value < ExactDecimal(significand: 1, scale: 1) {
            let percent = ExactDecimal(significand: value.significand * 100, scale: value.scale)
            log.warn(RulesWarning(kind: .tinyRate, file: file, mark: mark, field: path,
                                  message: "rate \(text) reads as \(text) % (rates are percentages); for \(percent) % write "
                                  + "\(percent)%, or write \(text)% if \(text) % is meant"))
        }
        return value
    }

    func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws(RulesError) -> T where T.RawValue == String {
        let options = T.allCases.map(\.rawValue).joined(separator: "|")
        let text = try string(options)
        guard let value = T(rawValue: text) else { throw expected(options) }
        return value
    }

    func date() throws(RulesError) -> CalendarDate {
        guard let date = CalendarDate(iso: try string("a date like 2026-12-25")) else { throw expected("a date like 2026-12-25") }
        return date
    }

    /// A time of day `HH:MM`, as minutes after midnight.
    func timeOfDay() throws(RulesError) -> Int {
        let what = "a time like \"14:00\" (HH:MM, 24-hour)"
        let parts = try string(what).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m) else { throw expected(what) }
        return h * 60 + m
    }
}

/// The checked keys of one mapping.
struct RulesMapping {
    let owner: RulesNode
    let pairs: [(key: YAMLScalar, value: YAMLNode)]
    /// Known keys an unknown key was taken for a misspelling of (already reported).
    var misspelt: Set<String> = []

    func has(_ key: String) -> Bool { self[key] != nil }

    /// The value under `key`; a null value counts as absent.
    subscript(_ key: String) -> RulesNode? {
        guard let pair = pairs.first(where: { $0.key.text == key }) else { return nil }
        let node = owner.child(key, pair.value)
        return node.isNull ? nil : node
    }

    func required(_ key: String, _ what: String) throws(RulesError) -> RulesNode {
        guard let node = self[key] else {
            var error = RulesError(kind: .missingKey, file: owner.file, mark: owner.mark,
                                   field: owner.path.isEmpty ? key : "\(owner.path).\(key)", message: "missing; expected \(what)")
            // `lable: S` was reported as "did you mean 'label'?"; label's absence is the same mistake.
            error.followsEarlier = misspelt.contains(key)
            throw error
        }
        return node
    }
}
