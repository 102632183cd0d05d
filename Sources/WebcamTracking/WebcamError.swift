// WebcamError — the one error type of the WebcamTracking module.

/// What can go wrong between a camera (or video file) and an eye point.
public enum WebcamError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The camera or file stopped delivering frames while tracking (the message names it).
    case capture(String)
    /// A face detector cannot be created (library or model missing or unloadable).
    case detector(String)
    /// A detection call failed.
    case detection(String)
    /// A calibration could not be completed.
    case calibration(String)

    public var description: String {
        switch self {
        case .capture(let m): return m
        case .detector(let m): return m
        case .detection(let m): return "face detection failed: \(m)"
        case .calibration(let m): return "calibration failed: \(m)"
        }
    }
}
