/// Where an effective setting came from; `--print-config` shows it and errors name it.
public enum SettingSource: Sendable, Equatable, CustomStringConvertible {
    case flag(String)
    case environment(String)
    case file(path: String, line: Int)
    case defaultValue

    /// Higher wins: flags > environment > config file > defaults.
    var rank: Int {
        switch self {
        case .defaultValue: 0
        case .file: 1
        case .environment: 2
        case .flag: 3
        }
    }

    public var description: String {
        switch self {
        case .flag(let name): "flag \(name)"
        case .environment(let name): "environment \(name)"
        case .file(let path, let line): "\(path):\(line)"
        case .defaultValue: "default"
        }
    }
}
