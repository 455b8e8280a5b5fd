/// A JSON document as read, without loss: numbers keep their literal text (never a binary
/// float) and objects keep their members in document order.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's literal text exactly as written (`0.1`, `-0`, `1e400`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// An integer as a JSON number.
    public static func integer<T: BinaryInteger>(_ value: T) -> JSONValue { .number(String(value)) }

    public var isNull: Bool { if case .null = self { return true } else { return false } }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON object that keeps its members in order (so writing is deterministic). Two objects are
/// equal only with the same members in the same order. `JSONReader` never yields duplicate keys.
public struct JSONObject: Sendable, Hashable {
    public var members: [JSONMember]

    public init(_ members: [JSONMember] = []) { self.members = members }

    public init(_ pairs: KeyValuePairs<String, JSONValue>) {
        self.members = pairs.map { JSONMember($0.key, $0.value) }
    }

    /// The value under `key`; a linear search, which beats hashing for the handful of members
    /// an event object has.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where member.key == key { return member.value }
            return nil
        }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(JSONMember(key, newValue))
            }
        }
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
}
