// WebcamError — the one error type of the WebcamTracking module.

/// What can go wrong between a camera (or video file) and an eye point.
public enum WebcamError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The camera or file cannot be opened, or stopped delivering frames (the native layer's
    /// one-line message names the device or file).
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

/// Calls a native function with a 512-byte error buffer and returns its message.
func withErrorBuffer<T>(_ body: (UnsafeMutablePointer<CChar>, Int32) -> T) -> (T, String) {
    var buffer = [CChar](repeating: 0, count: 512)
    let result = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, Int32($0.count)) }
    let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    return (result, message)
}
