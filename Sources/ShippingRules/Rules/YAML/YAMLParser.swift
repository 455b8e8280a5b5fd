import CYAML

/// Reads YAML text into a `YAMLNode` tree with libyaml's event API. One document per file;
/// anchors and aliases are resolved; keys must be scalars and unique.
///
/// A rules file is read by a running worker on every reload, so what a file can cost is bounded:
/// its size (`maxBytes`), its nesting (`maxDepth`: a tree deeper than a few thousand levels would
/// overflow the stack when Swift frees it, node by nested node) and the number of values it
/// expands to with aliases (`maxValues`). Building is linear in the file's size.
enum YAMLParser {
    struct Failure: Error, Sendable {
        let message: String
        let mark: SourceMark?
        /// True when a limit was exceeded, false for a syntax or structure error.
        var isLimit = false
    }

    /// The largest file read: 32 MiB is over four times a 400,000-row postal table.
    static let maxBytes = 32 << 20
    /// The deepest nesting of lists and mappings: rules need about 8 levels.
    static let maxDepth = 64
    /// The most values a document may expand to, counting an alias once per use.
    static let maxValues = 4_000_000

    static func parse(_ text: String) throws(Failure) -> YAMLNode {
        try parse(Array(text.utf8))
    }

    static func parse(_ bytes: [UInt8]) throws(Failure) -> YAMLNode {
        guard bytes.count <= maxBytes else {
            throw Failure(message: "the file is \(bytes.count) bytes, over the limit of \(maxBytes) bytes (32 MiB) for a rules file; "
                          + "write long postal code lists as prefixes (\"941*\") or ranges (\"94000..94999\"), or split the merchants",
                          mark: mark(ofOffset: maxBytes, in: bytes), isLimit: true)
        }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw Failure(message: "the YAML parser could not start", mark: nil) }
        defer { yaml_parser_delete(&parser) }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> YAMLNode in
            yaml_parser_set_input_string(&parser, buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count)
            var builder = TreeBuilder()
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    throw Failure(message: syntaxMessage(parser), mark: SourceMark(parser.problem_mark))
                }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { break }
                try builder.take(event)
            }
            guard let root = builder.root else { throw Failure(message: "the file holds no rules (it is empty)", mark: SourceMark(line: 1, column: 1)) }
            return root
        }
    }

    private static func syntaxMessage(_ parser: yaml_parser_t) -> String {
        let problem = parser.problem.map { String(cString: $0) } ?? "unreadable YAML"
        if let context = parser.context { return "YAML syntax: \(problem) \(String(cString: context))" }
        return "YAML syntax: \(problem)"
    }

    /// The line and column (in characters) of a byte offset.
    private static func mark(ofOffset offset: Int, in bytes: [UInt8]) -> SourceMark {
        var line = 1, column = 1
        for b in bytes[..<min(offset, bytes.count)] {
            if b == 0x0a { line += 1; column = 1 } else if b & 0xc0 != 0x80 { column += 1 }
        }
        return SourceMark(line: line, column: column)
    }
}

extension YAMLParser.Failure {
    /// The failure as the loader reports it: a syntax error, or a limit exceeded.
    func rulesError(file: String) -> RulesError {
        RulesError(kind: isLimit ? .tooLarge : .syntax, file: file, mark: mark, field: "", message: message)
    }
}

extension SourceMark {
    init(_ mark: yaml_mark_t) { self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1) }
}

/// Turns the event stream into nested nodes with a stack of open collections. Each open
/// collection is appended to in place (`stack[top]`), so a list of n items costs O(n).
private struct TreeBuilder {
    private struct Open {
        let isMapping: Bool
        let mark: SourceMark
        let anchor: String?
        var items: [YAMLNode] = []
        var pairs: [(key: YAMLScalar, value: YAMLNode)] = []
        var pendingKey: YAMLScalar?
        var keys: Set<String> = []
        /// Values below this collection, aliases counted at their full size.
        var values = 0
    }

    private var stack: [Open] = []
    /// An anchor's node and the number of values it expands to.
    private var anchors: [String: (node: YAMLNode, values: Int)] = [:]
    private var documents = 0
    private var values = 0
    private(set) var root: YAMLNode?

    mutating func take(_ event: yaml_event_t) throws(YAMLParser.Failure) {
        let mark = SourceMark(event.start_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 { throw .init(message: "a rules file holds one YAML document; remove the second '---'", mark: mark) }
        case YAML_SCALAR_EVENT:
            let s = event.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: s.value, count: s.length), as: UTF8.self)
            let scalar = YAMLScalar(text: text, isPlain: s.style == YAML_PLAIN_SCALAR_STYLE, mark: mark)
            try count(1, at: mark)
            try add(.scalar(scalar), values: 1, anchor: Self.string(s.anchor))
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            guard let anchored = anchors[name] else { throw .init(message: "alias *\(name) names no anchor defined above", mark: mark) }
            try count(anchored.values, at: mark)
            try add(anchored.node, values: anchored.values, anchor: nil)
        case YAML_SEQUENCE_START_EVENT:
            try open(Open(isMapping: false, mark: mark, anchor: Self.string(event.data.sequence_start.anchor)))
        case YAML_MAPPING_START_EVENT:
            try open(Open(isMapping: true, mark: mark, anchor: Self.string(event.data.mapping_start.anchor)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let done = stack.popLast() else { return }
            let node: YAMLNode = done.isMapping ? .mapping(done.pairs, done.mark) : .sequence(done.items, done.mark)
            try count(1, at: done.mark)
            try add(node, values: done.values + 1, anchor: done.anchor)
        default:
            break
        }
    }

    private mutating func open(_ collection: Open) throws(YAMLParser.Failure) {
        guard stack.count < YAMLParser.maxDepth else {
            throw .init(message: "lists and mappings nest deeper than \(YAMLParser.maxDepth) levels here, the limit for a rules file "
                        + "(rules need about 8); look for brackets opened and never closed, or a generator gone wrong",
                        mark: collection.mark, isLimit: true)
        }
        stack.append(collection)
    }

    /// Counts values as the loader will walk them: an alias as often as it is used, at its full size.
    private mutating func count(_ added: Int, at mark: SourceMark) throws(YAMLParser.Failure) {
        values += added
        guard values <= YAMLParser.maxValues else {
            throw .init(message: "the document expands to more than \(YAMLParser.maxValues) values here (an alias counts as everything "
                        + "its anchor holds, each time it is used), the limit for a rules file; use fewer or smaller aliases",
                        mark: mark, isLimit: true)
        }
    }

    /// Adds a finished node (`values` of them, itself included) to the collection open on top.
    private mutating func add(_ node: YAMLNode, values added: Int, anchor: String?) throws(YAMLParser.Failure) {
        if let anchor { anchors[anchor] = (node, added) }
        guard !stack.isEmpty else { root = node; return }
        let top = stack.count - 1
        stack[top].values += added
        guard stack[top].isMapping else { stack[top].items.append(node); return }
        if let key = stack[top].pendingKey {
            stack[top].pairs.append((key: key, value: node))
            stack[top].pendingKey = nil
            return
        }
        guard case .scalar(let key) = node else {
            throw .init(message: "a mapping key must be a plain name, found \(node.shortDescription)", mark: node.mark)
        }
        guard stack[top].keys.insert(key.text).inserted else {
            throw .init(message: "key '\(key.text)' appears twice in this mapping", mark: key.mark)
        }
        stack[top].pendingKey = key
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}
