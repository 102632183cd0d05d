// HeadTrackerSettings — every knob of the per-frame tracking pipeline.

/// Settings of a `HeadTracker`. Units: metres, seconds; screen space.
public struct HeadTrackerSettings: Sendable, Equatable {
    /// Smoothing filter (default `FilterSpec.default`: the constant-acceleration Kalman filter, tuned on the latency rig).
    public var filter: FilterSpec = .default
    /// The eye a mono picture is drawn for (config `dominantEye`).
    public var monoEye: MonoEye = .midpoint
    /// Prediction (LaViola DESP after the filter); nil = none. When set, each frame's pose is
    /// predicted from the newest sample to the frame's expected present time — frame time +
    /// `HeadTracker.presentLead` (the window sets it from its recent render-and-present median)
    /// — plus this many extra seconds (latency after the present the software cannot see, e.g.
    /// the display's own; 0 is fine).
    public var predictionHorizon: Double? = nil
    /// Calibration: signed axis remap applied to each source position, then `calibrationOffset` added.
    public var calibrationAxes: AxisMapping = .identity
    /// Calibration offset in metres, added after the axis remap.
    public var calibrationOffset: Vec3d = .zero
    /// The neutral eye (metres): where the eye rests when tracking is lost, and the centre
    /// that movement scaling is relative to.
    public var neutralEye: Vec3d = Vec3d(0, 0, 0.6)
    /// Multiplies the head's offset from the neutral eye (1 = true parallax).
    public var movementScale: Double = 1
    /// Per-axis strength multiplying the offset from the neutral eye (x, y, z; default 1).
    public var axisStrength: Vec3d = Vec3d(1, 1, 1)
    /// A sample older than this (seconds, frame time − sample time) counts as missing.
    public var staleAfter: Double = 0.25
    /// How long the last pose is held after tracking is lost, seconds.
    public var holdDuration: Double = 0.5
    /// Duration of the smoothstep ease from the held pose to the neutral eye, seconds.
    public var easeOutDuration: Double = 1.0
    /// Duration of the smoothstep ease back to the live pose when tracking returns, seconds.
    public var easeInDuration: Double = 0.5

    /// Default settings.
    public init() {}
}
