// EyeObservation — what the pipeline made of one frame.
import HeadTracking

/// One processed frame: the tracked face and, where both eyes were seen, the eye points.
public struct EyeObservation: Sendable {
    /// The frame's capture time (seconds, the capture's clock) and number.
    public var timestamp: Double
    public var frameIndex: Int
    /// Image size the face was found in.
    public var width: Int, height: Int
    /// The tracked face, or nil when none was found.
    public var face: DetectedFace?
    /// How it was found.
    public var search: FaceTracker.Search
    /// The eyes in screen space (metres) when both eye centres were found.
    public var eyes: EyePoints?
    /// The head's yaw, pitch and roll (radians, `HeadPoseModel.Pose.angles`) when the back end
    /// measures the head's pose (the landmarker).
    public var angles: Vec3d?
    /// Distance estimated from the face box width instead (metres; for comparison and for
    /// faces whose eyes were not found), using `PinholeEyeModel` with a 0.15 m face width.
    public var boxDistance: Double?
    /// Time spent detecting and estimating (seconds).
    public var processingTime: Double

    /// Confidence 0…1 for the pose: the detector's score with both eyes, a third of it with a
    /// face box only, 0 without a face.
    public var confidence: Double {
        guard let face else { return 0 }
        let s = face.score > 1 ? 1 : max(0, face.score)   // Haar scores count detections: cap at 1
        return eyes != nil ? s : s / 3
    }

    /// The eye point (metres, screen space) this frame implies: the eyes' midpoint, else the
    /// face box centre at the box distance; nil without a face.
    public func eyePoint(model: PinholeEyeModel) -> Vec3d? {
        if let eyes { return eyes.centre }
        guard let face, let z = boxDistance else { return nil }
        let f = model.focal(forWidth: Double(width))
        let c = face.centre
        return Vec3d(-(c.x - Double(width) / 2) * z / f, -(c.y - Double(height) / 2) * z / f, z) + model.cameraPosition
    }
}
