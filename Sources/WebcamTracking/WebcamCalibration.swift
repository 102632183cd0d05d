// WebcamCalibration — the viewer sits centred at a known distance; fit the IPD (or the focal length).

/// Fits the constant that turns what the camera sees into distance, from frames of a viewer
/// sitting at a tape-measured distance. Both eye models put the distance in proportion to the
/// IPD and to the focal length (pinhole: z = f·IPD/d; head pose: the pose's depth scales with
/// f/f_virtual and with the IPD), so the fitted value is the current one times the taped distance
/// over the median measured distance. With the landmarker's pose a turned head (median |yaw|
/// above 10°) is refused: the viewer is asked to face the camera. (Pitch is not checked: a viewer
/// looking at the screen below a camera reads as looking down, rightly.)
public struct WebcamCalibration: Sendable {
    /// What to fit.
    public enum Fit: String, Sendable, CaseIterable { case ipd, focal }

    /// The outcome: the config key and value to save, and what it was fitted from.
    public struct Result: Sendable, Equatable {
        /// `ipdMM` (millimetres) or `cameraFocalPx` (pixels at 640 px width).
        public var key: String
        public var value: Double
        /// Frames used, and frames seen.
        public var framesUsed: Int, framesSeen: Int
        /// The median eye spacing (pixels: eye centres, or the irises with the landmarker) and
        /// the spread of the measured distance (median absolute deviation, metres).
        public var eyeSpacing: Double, spread: Double
        /// The viewer's median sideways/vertical offset from the camera axis (metres), a check that they sat centred.
        public var offset: SIMD2<Double>
    }

    /// Frames a calibration collects at least (when they come within four times its duration):
    /// `fit` needs 10 with both eyes.
    public static let minimumFrames = 12
    /// Largest median head turn (radians) a calibration accepts.
    public static let maxTurn = 10 * Double.pi / 180

    /// Fits from `observations` (frames with both eyes count) taken at `distance` metres.
    /// Throws when fewer than half the frames (or fewer than 10) show both eyes, or the head is turned.
    public static func fit(_ observations: [EyeObservation], distance: Double, model: PinholeEyeModel, fit: Fit) throws -> Result {
        guard distance > 0.1, distance < 5 else { throw WebcamError.calibration("distance \(distance) m is outside 0.1–5 m") }
        let withEyes = observations.filter { $0.eyes != nil }
        guard withEyes.count >= 10, withEyes.count * 2 >= observations.count else {
            throw WebcamError.calibration("both eyes were seen in \(withEyes.count) of \(observations.count) frames; sit centred, facing the camera, in good light")
        }
        func median(_ v: [Double]) -> Double { let s = v.sorted(); return s[s.count / 2] }
        let angles = withEyes.compactMap(\.angles)
        if !angles.isEmpty {
            let yaw = median(angles.map(\.x))
            guard abs(yaw) <= maxTurn else {
                throw WebcamError.calibration(String(format: "your head is turned %.0f° to your %@: face the camera and try again",
                                                     abs(yaw) * 180 / .pi, yaw > 0 ? "left" : "right"))
            }
        }
        let measured = median(withEyes.map { $0.eyes!.distance })
        let spread = median(withEyes.map { abs($0.eyes!.distance - measured) })
        let d = median(withEyes.map { $0.eyes!.eyeDistancePixels * model.imageWidth / Double($0.width) })
        let offset = SIMD2(median(withEyes.map { $0.eyes!.centre.x - model.cameraPosition.x }),
                           median(withEyes.map { $0.eyes!.centre.y - model.cameraPosition.y }))
        guard measured > 0 else { throw WebcamError.calibration("no distance could be measured") }
        let ratio = distance / measured
        let value: Double, key: String
        switch fit {
        case .ipd:
            key = "ipdMM"; value = model.ipd * ratio * 1000
            guard value > 40, value < 90 else {
                throw WebcamError.calibration(String(format: "the fitted IPD %.1f mm is implausible (40–90): check the distance and the camera's field of view", value))
            }
        case .focal:
            key = "cameraFocalPx"; value = model.focalPixels * ratio
            guard value > 100, value < 5000 else {
                throw WebcamError.calibration(String(format: "the fitted focal length %.0f px is implausible", value))
            }
        }
        return Result(key: key, value: (value * 10).rounded() / 10, framesUsed: withEyes.count, framesSeen: observations.count,
                      eyeSpacing: d, spread: spread, offset: offset)
    }
}
