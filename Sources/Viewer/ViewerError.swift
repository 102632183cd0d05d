/// Errors the viewer reports to users: each names the file or option and what was wrong.
public enum ViewerError: Error, CustomStringConvertible, Equatable {
    /// A JSON file (camera or scene) could not be used.
    case badJSON(path: String, reason: String)
    /// A value (a frame rate, a sweep) was out of range or malformed; `what` names it in words.
    case badValue(what: String, value: String, reason: String)
    /// An output file or folder could not be written.
    case cannotWrite(path: String, reason: String)
    /// A scene file could not be loaded.
    case sceneLoad(path: String, reason: String)
    /// Loading `path` was cancelled by its caller (a newer drop, the window closing).
    case cancelled(path: String)

    public var description: String {
        switch self {
        case let .badJSON(path, reason): return "\(path): \(reason)"
        case let .badValue(what, value, reason): return "\(what) '\(value)': \(reason)"
        case let .cannotWrite(path, reason): return "\(path): \(reason)"
        case let .sceneLoad(path, reason): return "\(path): \(reason)"
        case let .cancelled(path): return "\(path): loading cancelled"
        }
    }
}
