import CYAML

/// A YAML document as plain nodes, loaded with libyaml: enough to check compose files,
/// Kubernetes manifests and the AsyncAPI document. Scalars stay text; no tags are resolved.
indirect enum YAMLNode: Equatable, CustomStringConvertible {
    case scalar(String)
    case sequence([YAMLNode])
    case mapping([(key: String, value: YAMLNode)])

    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    /// Every document of a stream (Kubernetes files hold several, separated by `---`).
    static func loadAll(_ text: String) throws -> [YAMLNode] {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw LoadError(description: "libyaml could not start") }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
        var documents: [YAMLNode] = []
        try bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            while true {
                var document = yaml_document_t()
                guard yaml_parser_load(&parser, &document) == 1 else {
                    let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
                    throw LoadError(description: "line \(parser.problem_mark.line + 1): \(problem)")
                }
                defer { yaml_document_delete(&document) }
                guard let root = yaml_document_get_root_node(&document) else { break }  // end of stream
                documents.append(convert(root, in: &document))
            }
        }
        return documents
    }

    static func load(_ text: String) throws -> YAMLNode {
        guard let first = try loadAll(text).first else { throw LoadError(description: "empty document") }
        return first
    }

    private static func convert(_ node: UnsafeMutablePointer<yaml_node_t>, in document: inout yaml_document_t) -> YAMLNode {
        switch node.pointee.type {
        case YAML_SCALAR_NODE:
            let s = node.pointee.data.scalar
            return .scalar(String(decoding: UnsafeBufferPointer(start: s.value, count: s.length), as: UTF8.self))
        case YAML_SEQUENCE_NODE:
            var items: [YAMLNode] = []
            var item = node.pointee.data.sequence.items.start
            while let current = item, current != node.pointee.data.sequence.items.top {
                items.append(convert(yaml_document_get_node(&document, current.pointee)!, in: &document))
                item = current + 1
            }
            return .sequence(items)
        case YAML_MAPPING_NODE:
            var pairs: [(key: String, value: YAMLNode)] = []
            var pair = node.pointee.data.mapping.pairs.start
            while let current = pair, current != node.pointee.data.mapping.pairs.top {
                let key = convert(yaml_document_get_node(&document, current.pointee.key)!, in: &document)
                let value = convert(yaml_document_get_node(&document, current.pointee.value)!, in: &document)
                pairs.append((key.text ?? key.description, value))
                pair = current + 1
            }
            return .mapping(mergingKeys(pairs))
        default:
            return .scalar("")
        }
    }

    /// YAML 1.1 merge keys (`<<: *anchor`), as docker compose reads them: the anchor's members
    /// come in unless the mapping sets them itself.
    private static func mergingKeys(_ pairs: [(key: String, value: YAMLNode)]) -> [(key: String, value: YAMLNode)] {
        guard let merge = pairs.first(where: { $0.key == "<<" }), case .mapping(let inherited) = merge.value else { return pairs }
        let own = pairs.filter { $0.key != "<<" }
        return own + inherited.filter { base in !own.contains { $0.key == base.key } }
    }

    // MARK: - Reading

    subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// Follows a path of mapping keys: `node["spec", "template", "spec"]`.
    subscript(path: String...) -> YAMLNode? {
        path.reduce(Optional(self)) { node, key in node?[key] }
    }

    var text: String? { if case .scalar(let s) = self { s } else { nil } }
    var items: [YAMLNode] { if case .sequence(let s) = self { s } else { [] } }
    var keys: [String] { if case .mapping(let pairs) = self { pairs.map(\.key) } else { [] } }

    static func == (a: YAMLNode, b: YAMLNode) -> Bool { a.description == b.description }

    var description: String {
        switch self {
        case .scalar(let s): s
        case .sequence(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .mapping(let pairs): "{" + pairs.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}
