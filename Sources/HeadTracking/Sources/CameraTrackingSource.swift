// CameraTrackingSource — what a camera-based head source offers the window beyond poses: a
// picture of what it sees, and calibration while running.

/// What the camera saw last, for the window's camera inset (pixels, top-left origin).
public struct CameraPreview: Sendable {
    /// The frame: tightly packed 8-bit RGB, `width`×`height`.
    public var width: Int, height: Int
    public var rgb: [UInt8]
    /// The tracked face box (x, y, width, height), if any.
    public var faceBox: SIMD4<Double>?
    /// Eye centres (the person's right eye first) when both were found.
    public var eyes: [SIMD2<Double>]
    /// The estimated distance from the camera (metres), if any.
    public var distance: Double?
    /// A short label: the detector back end.
    public var label: String

    public init(width: Int, height: Int, rgb: [UInt8], faceBox: SIMD4<Double>?, eyes: [SIMD2<Double>], distance: Double?, label: String) {
        self.width = width; self.height = height; self.rgb = rgb; self.faceBox = faceBox
        self.eyes = eyes; self.distance = distance; self.label = label
    }
}

/// The outcome of an in-window calibration: a config key and value to save.
public struct CameraCalibrationResult: Sendable, Equatable {
    /// E.g. `ipdMM`.
    public var key: String
    public var value: Double
    /// One line for the user.
    public var summary: String
    public init(key: String, value: Double, summary: String) { self.key = key; self.value = value; self.summary = summary }
}

/// A head source that looks through a camera (the webcam tracker).
public protocol CameraTrackingSource: PoseSource {
    /// The last processed frame with its face and eyes, or nil before the first.
    func cameraPreview() -> CameraPreview?
    /// Starts collecting `seconds` of frames of a viewer sitting centred at `distance` metres (on
    /// a slow machine, longer, until enough frames have come: at most four times as long).
    func beginCalibration(distance: Double, seconds: Double)
    /// nil while collecting (or never started); then the fitted value (already applied to the
    /// running tracker) or the reason it failed. Reading it clears it.
    func takeCalibrationResult() -> Result<CameraCalibrationResult, HeadTrackingError>?
}
