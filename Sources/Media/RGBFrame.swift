// RGBFrame — one captured camera image, stamped at capture.

/// A tightly packed 8-bit RGB image (top-left origin) with the time it was captured.
/// Reused between captures (`pixels` keeps its capacity) so steady capture allocates nothing.
public struct RGBFrame: Sendable {
    /// Width and height in pixels.
    public var width: Int, height: Int
    /// `width * height * 3` bytes, R, G, B.
    public var pixels: [UInt8]
    /// When the frame was captured: seconds on `MonotonicClock` (live) or the file's frame
    /// time (i / fps) when reading a video offline.
    public var timestamp: Double
    /// Frame number since the capture opened (0-based; counts on across loops of a file).
    public var index: Int

    public init(width: Int = 0, height: Int = 0, pixels: [UInt8] = [], timestamp: Double = 0, index: Int = 0) {
        self.width = width; self.height = height; self.pixels = pixels; self.timestamp = timestamp; self.index = index
    }
}
