// MediaError — the one error type of the Media module.

/// What can go wrong opening or reading a picture, a video or a camera: the message names the
/// file or device and the problem, on one line.
public enum MediaError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A camera or file cannot be opened, or stopped delivering frames.
    case capture(String)
    /// A picture or video file cannot be used as a wall (missing, undecodable).
    case file(path: String, reason: String)

    public var description: String {
        switch self {
        case .capture(let m): return m
        case let .file(path, reason): return "\(path): \(reason)"
        }
    }
}

/// Calls a native function with a 512-byte error buffer and returns its message.
public func withNativeErrorBuffer<T>(_ body: (UnsafeMutablePointer<CChar>, Int32) -> T) -> (T, String) {
    var buffer = [CChar](repeating: 0, count: 512)
    let result = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, Int32($0.count)) }
    let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    return (result, message)
}
