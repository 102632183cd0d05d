/// Errors the viewer reports to users: each names the file or option and what was wrong.
public enum ViewerError: Error, CustomStringConvertible, Equatable {
    /// A JSON file (camera or scene) could not be used.
    case badJSON(path: String, reason: String)
    /// A command-line value was out of range or malformed.
    case badOption(name: String, value: String, reason: String)
    /// A scene file could not be loaded.
    case sceneLoad(path: String, reason: String)

    public var description: String {
        switch self {
        case let .badJSON(path, reason): return "\(path): \(reason)"
        case let .badOption(name, value, reason): return "\(name) \(value): \(reason)"
        case let .sceneLoad(path, reason): return "\(path): \(reason)"
        }
    }
}
