// Settings — SettingsError: the one error type of the Settings module.

/// A config file that cannot be read, parsed or written.
public enum SettingsError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The config file is present but invalid (`reason` names the key or the JSON problem).
    case badConfig(file: String, reason: String)
    /// The config file could not be written.
    case writeFailed(file: String, reason: String)

    public var description: String {
        switch self {
        case let .badConfig(file, reason): return "\(file): invalid config: \(reason)"
        case let .writeFailed(file, reason): return "\(file): cannot write config: \(reason)"
        }
    }
}
