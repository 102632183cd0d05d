// HeadTrackingError — the one error type of the HeadTracking module.
import Foundation

/// Everything that can go wrong in HeadTracking, each case carrying what a user needs to fix it.
public enum HeadTrackingError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A log line could not be parsed (`line` is 1-based).
    case badLine(file: String, line: Int, reason: String)
    /// A log file could not be read or has no usable samples.
    case badFile(file: String, reason: String)
    /// A command-line or config specification string is malformed.
    case badSpec(what: String, value: String, expected: String)
    /// The source exists in the interface but is not implemented yet (e.g. `webcam`).
    case notAvailable(String)
    /// A socket call failed (`call` is the POSIX function, `errno` its error number).
    case socket(call: String, errno: Int32, detail: String)
    /// Writing a file failed.
    case writeFailed(file: String, reason: String)
    /// The config file is present but invalid.
    case badConfig(file: String, reason: String)

    public var description: String {
        switch self {
        case let .badLine(file, line, reason): return "\(file):\(line): \(reason)"
        case let .badFile(file, reason): return "\(file): \(reason)"
        case let .badSpec(what, value, expected): return "invalid \(what) '\(value)': expected \(expected)"
        case let .notAvailable(what): return "\(what) is not available yet"
        case let .socket(call, errno, detail):
            return "\(call) failed (\(String(cString: strerror(errno)))): \(detail)"
        case let .writeFailed(file, reason): return "\(file): cannot write: \(reason)"
        case let .badConfig(file, reason): return "\(file): invalid config: \(reason)"
        }
    }
}
