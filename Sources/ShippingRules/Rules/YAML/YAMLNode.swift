/// A position in a rules file, 1-based, as an editor shows it.
public struct SourceMark: Hashable, Sendable {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A scalar as written: the loader reads numbers and amounts from this exact text, never
/// through a float. `isPlain` tells `"5.00"` (quoted) from `5.00`, which matters only for null.
struct YAMLScalar: Sendable {
    let text: String
    let isPlain: Bool
    let mark: SourceMark

    /// YAML's null spellings, only when unquoted.
    var isNull: Bool { isPlain && (text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL") }
}

/// The document as a tree that remembers where each node came from, so that every
/// loader error can point at a line and column.
indirect enum YAMLNode: Sendable {
    case scalar(YAMLScalar)
    case sequence([YAMLNode], SourceMark)
    case mapping([(key: YAMLScalar, value: YAMLNode)], SourceMark)

    var mark: SourceMark {
        switch self {
        case .scalar(let s): return s.mark
        case .sequence(_, let m), .mapping(_, let m): return m
        }
    }

    /// How the node reads in an error message: the scalar itself, or its kind.
    var shortDescription: String {
        switch self {
        case .scalar(let s):
            if s.isNull { return "nothing" }
            let text = s.text.count > 40 ? String(s.text.prefix(40)) + "…" : s.text
            return "\"\(text)\""
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}
