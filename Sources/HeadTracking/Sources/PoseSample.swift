// PoseSample — one measurement from a head source.
import RenderCore

/// Double-precision 3-vector for positions inside HeadTracking (metres, screen space unless noted).
public typealias Vec3d = SIMD3<Double>

/// One head measurement as a source publishes it.
public struct PoseSample: Equatable, Sendable {
    /// When the head was at `position`, in seconds on the run's clock (see `MonotonicClock`).
    public var timestamp: Double
    /// Eye position in metres, screen space (origin at the screen centre, x right, y up,
    /// +z toward the viewer) — after the source's own unit/axis mapping.
    public var position: Vec3d
    /// Head yaw, pitch, roll in radians when the source reports them.
    public var rotation: Vec3d?
    /// Tracking confidence 0…1; 0 means "lost" (the tracker treats it as no sample).
    public var confidence: Double
    /// When the source published the sample (same clock as `timestamp`), for latency measurement.
    public var publishTime: Double
    /// Where both eyes were measured (the webcam): the vector from the left eye to the right
    /// eye (metres, screen space; about IPD along +x for a level head). Each eye sits half of it
    /// either side of `position`. nil when the source sees one point only.
    public var eyeSpan: Vec3d?

    /// Creates a sample; `publishTime` defaults to `timestamp`.
    public init(timestamp: Double, position: Vec3d, rotation: Vec3d? = nil,
                confidence: Double = 1, publishTime: Double? = nil, eyeSpan: Vec3d? = nil) {
        self.eyeSpan = eyeSpan
        self.timestamp = timestamp
        self.position = position
        self.rotation = rotation
        self.confidence = confidence
        self.publishTime = publishTime ?? timestamp
    }
}
