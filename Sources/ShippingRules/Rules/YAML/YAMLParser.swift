import CYAML

/// Reads YAML text into a `YAMLNode` tree with libyaml's event API. One document per file;
/// anchors and aliases are resolved; keys must be scalars and unique.
enum YAMLParser {
    struct Failure: Error, Sendable {
        let message: String
        let mark: SourceMark?
    }

    static func parse(_ text: String) throws(Failure) -> YAMLNode {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw Failure(message: "the YAML parser could not start", mark: nil) }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
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
}

extension SourceMark {
    init(_ mark: yaml_mark_t) { self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1) }
}

/// Turns the event stream into nested nodes with a stack of open collections.
private struct TreeBuilder {
    private enum Open {
        case sequence([YAMLNode], SourceMark, anchor: String?)
        case mapping([(key: YAMLScalar, value: YAMLNode)], pendingKey: YAMLScalar?, SourceMark, anchor: String?)
    }

    private var stack: [Open] = []
    private var anchors: [String: YAMLNode] = [:]
    private var documents = 0
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
            try add(.scalar(scalar), anchor: Self.string(s.anchor))
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            guard let node = anchors[name] else { throw .init(message: "alias *\(name) names no anchor defined above", mark: mark) }
            try add(node, anchor: nil)
        case YAML_SEQUENCE_START_EVENT:
            stack.append(.sequence([], mark, anchor: Self.string(event.data.sequence_start.anchor)))
        case YAML_MAPPING_START_EVENT:
            stack.append(.mapping([], pendingKey: nil, mark, anchor: Self.string(event.data.mapping_start.anchor)))
        case YAML_SEQUENCE_END_EVENT:
            guard case .sequence(let items, let m, let anchor) = stack.popLast() else { return }
            try add(.sequence(items, m), anchor: anchor)
        case YAML_MAPPING_END_EVENT:
            guard case .mapping(let pairs, _, let m, let anchor) = stack.popLast() else { return }
            try add(.mapping(pairs, m), anchor: anchor)
        default:
            break
        }
    }

    private mutating func add(_ node: YAMLNode, anchor: String?) throws(YAMLParser.Failure) {
        if let anchor { anchors[anchor] = node }
        guard let top = stack.popLast() else { root = node; return }
        switch top {
        case .sequence(var items, let m, let a):
            items.append(node)
            stack.append(.sequence(items, m, anchor: a))
        case .mapping(var pairs, let pending, let m, let a):
            if let key = pending {
                pairs.append((key: key, value: node))
                stack.append(.mapping(pairs, pendingKey: nil, m, anchor: a))
            } else {
                guard case .scalar(let key) = node else {
                    throw .init(message: "a mapping key must be a plain name, found \(node.shortDescription)", mark: node.mark)
                }
                if pairs.contains(where: { $0.key.text == key.text }) {
                    throw .init(message: "key '\(key.text)' appears twice in this mapping", mark: key.mark)
                }
                stack.append(.mapping(pairs, pendingKey: key, m, anchor: a))
            }
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}
