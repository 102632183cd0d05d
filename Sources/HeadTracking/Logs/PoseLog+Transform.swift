// PoseLog+Transform — axis remapping and recentring of foreign logs into screen space.

extension PoseLog {
    /// The nominal eye: 60 cm in front of the screen centre (metres, screen space).
    public static let nominalEye = Vec3d(0, 0, 0.6)

    /// The log with every position remapped by `axes` (rotations are left as they are).
    public func remapped(_ axes: AxisMapping) -> PoseLog {
        var copy = self
        copy.samples = samples.map { var s = $0; s.position = axes.apply(s.position); return s }
        return copy
    }

    /// The log translated so its per-axis median position lands on `target`
    /// (default: the nominal eye (0, 0, 0.6) m). Maps a foreign capture (e.g. an OptiTrack
    /// room frame) into screen space once its axes are right.
    public func recentred(to target: Vec3d = PoseLog.nominalEye) -> PoseLog {
        guard let m = medianPosition else { return self }
        let d = target - m
        var copy = self
        copy.samples = samples.map { var s = $0; s.position += d; return s }
        return copy
    }
}
