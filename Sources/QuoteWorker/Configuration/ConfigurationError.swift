/// A configuration the worker refuses to start with. Every case names the setting and where its
/// value came from, so the operator knows what to change; a secret's value is never repeated.
public enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidValue(setting: String, value: String, source: SettingSource, expected: String)
    case missing(setting: String, hint: String)
    case unknownSetting(String, source: SettingSource)
    case unreadableFile(path: String, setting: String, reason: String)
    case malformedLine(path: String, line: Int, reason: String)

    public var description: String {
        switch self {
        case .invalidValue(let setting, let value, let source, let expected):
            "\(setting)=\(value) (from \(source)): expected \(expected)"
        case .missing(let setting, let hint):
            "\(setting) is required: \(hint)"
        case .unknownSetting(let name, let source):
            "unknown setting \(name) (from \(source)); the command's --help lists the settings (`shipquote run --help`, `shipquote gateway --help`)"
        case .unreadableFile(let path, let setting, let reason):
            "\(setting) \(path): cannot be read (\(reason))"
        case .malformedLine(let path, let line, let reason):
            "config file \(path):\(line): \(reason)"
        }
    }
}
