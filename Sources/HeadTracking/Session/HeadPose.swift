// HeadPose — what the frame loop consumes: one smoothed, calibrated eye point per frame.
import RenderCore

/// Where the tracker stands with respect to its source, for the HUD.
public enum TrackingState: String, Sendable, Equatable, CaseIterable {
    /// Fresh samples arrive; the pose follows the (filtered) head.
    case tracking
    /// Samples stopped (or confidence 0): the last pose is held.
    case holding
    /// Still no samples: easing from the held pose to the neutral eye (smoothstep).
    case easingOut
    /// No samples (or never any): the pose is the neutral eye.
    case lost
    /// Samples came back: easing from the current pose to the live one (smoothstep).
    case easingIn
}

/// Which eye a mono (one-eye) picture is drawn for.
public enum MonoEye: String, Sendable, Equatable, CaseIterable {
    /// Halfway between the eyes (the default).
    case midpoint
    /// The viewer's dominant eye, when the source measures both eyes.
    case left, right

    /// Parses `left`, `right` or `none`/`midpoint` (config `dominantEye`).
    public init(parsing s: String) throws {
        switch s.lowercased() {
        case "left": self = .left
        case "right": self = .right
        case "none", "midpoint", "both": self = .midpoint
        default: throw HeadTrackingError.badSpec(what: "dominant eye", value: s, expected: "left, right or none")
        }
    }
}

/// The viewer's eye for one frame, in screen space.
public struct HeadPose: Equatable, Sendable {
    /// Frame time in seconds (the time passed to `HeadTracker.update`).
    public var time: Double
    /// Eye position in metres, screen space (x right, y up, +z toward the viewer).
    public var position: Vec3d
    /// Head yaw, pitch, roll in radians when the source reports them.
    public var rotation: Vec3d?
    /// The tracker's state this frame.
    public var state: TrackingState
    /// The unfiltered (calibrated, scaled) position of the newest sample, for recording.
    public var rawPosition: Vec3d?
    /// Frame time minus the newest sample's publish time, in seconds (nil without a sample).
    public var latency: Double?
    /// The measured vector from the left to the right eye (metres, scaled like the position),
    /// when the source measures both eyes; stereo places each eye half of it either side of
    /// `position`. nil otherwise (stereo then uses ± IPD/2 along x).
    public var eyeSpan: Vec3d?
    /// The eye a mono picture is drawn for (`eye`); stereo always takes both.
    public var monoEye: MonoEye = .midpoint
    /// When the newest sample behind this pose was taken (a camera frame's exposure), and when
    /// its pose was published: seconds on the source's clock (nil without a sample). Frame time
    /// minus `sampleTime` is how old the head it shows is, before prediction.
    public var sampleTime: Double?, samplePublishTime: Double?

    /// Creates a pose.
    public init(time: Double, position: Vec3d, rotation: Vec3d? = nil, state: TrackingState,
                rawPosition: Vec3d? = nil, latency: Double? = nil) {
        self.time = time; self.position = position; self.rotation = rotation
        self.state = state; self.rawPosition = rawPosition; self.latency = latency
    }

    /// The eye point for `OffAxisFrustum.matrices(eye:screen:)`: `position`, or the dominant
    /// eye half the measured eye span from it; z clamped to ≥ 1 cm so the frustum stays valid
    /// even for a bad sample.
    public var eye: Vec3 {
        var p = position
        if monoEye != .midpoint, let span = eyeSpan { p += span / 2 * (monoEye == .right ? 1 : -1) }
        return Vec3(Float(p.x), Float(p.y), Float(max(p.z, 0.01)))
    }
}
