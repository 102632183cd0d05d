// HeadTrackingError — the one error type of the HeadTracking module. Its cases carry values (a
// spec, a target, a file and line); `description` is one line and names no command-line flag —
// the executable words the remedies with its own flags.
import Foundation

/// Everything that can go wrong in HeadTracking, each case carrying what a user needs to fix it.
public enum HeadTrackingError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A log line could not be parsed (`line` is 1-based).
    case badLine(file: String, line: Int, reason: String)
    /// A log file could not be read or has no usable samples.
    case badFile(file: String, reason: String)
    /// A specification string (a head source, a filter, a pose target, …) is malformed.
    case badSpec(what: String, value: String, expected: String)
    /// Something is not available (yet) in this build or on this machine.
    case notAvailable(String)
    /// A camera source (`webcam`, `video:`) was asked of a caller that gave no camera tracker
    /// (`CameraSourceMaker`): only the mouse, fixed, udp and replay sources are built here.
    case cameraSourceUnavailable(source: HeadSourceSpec)
    /// Poses sent to `target` would arrive at the udp head `source` that listens there: the
    /// tracker would hear itself.
    case poseTargetLoopsBack(target: PoseTarget, source: HeadSourceSpec)
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
        case let .cameraSourceUnavailable(source):
            return "\(source) head tracking is not available here: no camera tracker was given (mouse, fixed, udp and replay sources are)"
        case let .poseTargetLoopsBack(target, source):
            return "invalid pose target '\(target)': expected a port other than the one the head source \(source) listens on (it would hear itself)"
        case let .socket(call, errno, detail):
            return "\(call) failed (\(String(cString: strerror(errno)))): \(detail)"
        case let .writeFailed(file, reason): return "\(file): cannot write: \(reason)"
        case let .badConfig(file, reason): return "\(file): invalid config: \(reason)"
        }
    }
}
