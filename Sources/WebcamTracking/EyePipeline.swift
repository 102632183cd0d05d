// EyePipeline — frame → tracked face → eyes in screen space: the synchronous core that the
// threaded webcam source and the offline `track webcam` command share.
import Media
import HeadTracking
import RenderCore

/// Runs detection, tracking and the pinhole model on one frame at a time.
public final class EyePipeline: @unchecked Sendable {
    public let detector: FaceDetector
    public var model: PinholeEyeModel
    public private(set) var tracker = FaceTracker()
    /// Nominal face-box width (metres) for the box-only distance estimate.
    public var faceWidth = 0.15

    public init(detector: FaceDetector, model: PinholeEyeModel) {
        self.detector = detector; self.model = model
    }

    /// Processes `frame`. Throws `WebcamError.detection` if the detector fails.
    public func process(_ frame: RGBFrame) throws -> EyeObservation {
        let t0 = MonotonicClock.now()
        let (face, search) = try tracker.track(width: frame.width, height: frame.height) { roi, full in
            try detector.detect(frame, roi: roi, fullRange: full)
        }
        var eyes: EyePoints?
        if let e = face?.eyes {
            eyes = model.eyes(personRight: e.right, personLeft: e.left, width: Double(frame.width), height: Double(frame.height))
        }
        let boxDistance = face.flatMap { $0.width > 1 ? model.focal(forWidth: Double(frame.width)) * faceWidth / $0.width : nil }
        return EyeObservation(timestamp: frame.timestamp, frameIndex: frame.index, width: frame.width, height: frame.height,
                              face: face, search: search, eyes: eyes, boxDistance: boxDistance,
                              processingTime: MonotonicClock.now() - t0)
    }

    /// Forgets the tracked face.
    public func reset() { tracker.reset() }
}
