/// A small flag reader: `--name value`, `--name=value`, repeatable `-X key=value`, and switches.
/// Unknown flags are errors, so a typo never passes silently. `-h` is `--help` wherever `--help` is a switch.
struct Arguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var switches: Set<String> = []
    private(set) var positional: [String] = []

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// `valued` are flags that take a value; `flags` are switches. Aliases map to a canonical name.
    init(_ args: [String], valued: Set<String>, flags: Set<String> = [], aliases: [String: String] = [:]) throws {
        var i = 0
        while i < args.count {
            let arg = args[i]
            i += 1
            guard arg.hasPrefix("-"), arg != "-" else { positional.append(arg); continue }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            name = aliases[name] ?? (name == "-h" && flags.contains("--help") ? "--help" : name)
            if flags.contains(name) {
                guard inline == nil else { throw UsageError(description: "\(name) takes no value") }
                switches.insert(name)
            } else if valued.contains(name) {
                let value: String
                if let inline { value = inline } else {
                    guard i < args.count else { throw UsageError(description: "\(name) needs a value") }
                    value = args[i]
                    i += 1
                }
                values[name, default: []].append(value)
            } else {
                throw UsageError(description: "unknown flag \(arg)")
            }
        }
    }

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { switches.contains(name) }

    func int(_ name: String) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text) else { throw UsageError(description: "\(name) expects a whole number, got \(text)") }
        return n
    }
}
