// WebcamCalibration — the viewer sits centred at a known distance; fit the IPD (or the focal length).

/// Fits the constant that turns eye spacing into distance, from frames of a viewer sitting at a
/// tape-measured distance: the median eye spacing d (pixels) gives IPD = d·z / f (keeping the
/// camera's focal length f), or f = d·z / IPD (keeping the IPD).
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
        /// The median eye spacing (pixels) and its spread (median absolute deviation, pixels).
        public var eyeSpacing: Double, spread: Double
        /// The viewer's median sideways/vertical offset from the camera axis (metres), a check that they sat centred.
        public var offset: SIMD2<Double>
    }

    /// Fits from `observations` (frames with both eyes count) taken at `distance` metres.
    /// Throws when fewer than half the frames (or fewer than 10) show both eyes.
    public static func fit(_ observations: [EyeObservation], distance: Double, model: PinholeEyeModel, fit: Fit) throws -> Result {
        guard distance > 0.1, distance < 5 else { throw WebcamError.calibration("distance \(distance) m is outside 0.1–5 m") }
        let withEyes = observations.filter { $0.eyes != nil }
        guard withEyes.count >= 10, withEyes.count * 2 >= observations.count else {
            throw WebcamError.calibration("both eyes were seen in \(withEyes.count) of \(observations.count) frames; sit centred, facing the camera, in good light")
        }
        // Spacing normalised to 640 px wide frames, so the focal length's width convention holds.
        let spacings = withEyes.map { $0.eyes!.eyeDistancePixels * model.imageWidth / Double($0.width) }.sorted()
        let d = spacings[spacings.count / 2]
        let spread = spacings.map { abs($0 - d) }.sorted()[spacings.count / 2]
        let xs = withEyes.map { $0.eyes!.centre.x - model.cameraPosition.x }.sorted()
        let ys = withEyes.map { $0.eyes!.centre.y - model.cameraPosition.y }.sorted()
        let offset = SIMD2(xs[xs.count / 2], ys[ys.count / 2])
        let value: Double, key: String
        switch fit {
        case .ipd:
            key = "ipdMM"; value = model.ipd(eyeDistancePixels: d, distance: distance, width: model.imageWidth) * 1000
            guard value > 40, value < 90 else {
                throw WebcamError.calibration(String(format: "the fitted IPD %.1f mm is implausible (40–90): check the distance and the camera's field of view", value))
            }
        case .focal:
            key = "cameraFocalPx"; value = model.focalPixels(eyeDistancePixels: d, distance: distance, width: model.imageWidth)
            guard value > 100, value < 5000 else {
                throw WebcamError.calibration(String(format: "the fitted focal length %.0f px is implausible", value))
            }
        }
        return Result(key: key, value: (value * 10).rounded() / 10, framesUsed: withEyes.count, framesSeen: observations.count,
                      eyeSpacing: d, spread: spread, offset: offset)
    }
}
