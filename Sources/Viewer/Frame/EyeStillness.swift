// EyeStillness — whether the eye is holding still, for the frame-time governor: still while it
// stays within a small radius of where it settled, a radius above the trackers' still jitter.
import HeadTracking

/// Tells a still eye from a moving one, frame by frame.
public struct EyeStillness: Sendable {
    /// How far (metres) the eye may wander from where it settled and still count as still: 2 mm,
    /// several times the filtered trackers' still jitter (0.05–0.6 mm) and far below a deliberate move.
    public var radius: Double
    private var anchor: Vec3d?

    public init(radius: Double = 0.002) { self.radius = radius }

    /// Whether `eye` (metres, screen coordinates) is within `radius` of the anchor; if not, it
    /// becomes the new anchor and the eye counts as moving. A lost head (nil) counts as still.
    public mutating func isStill(_ eye: Vec3d?) -> Bool {
        guard let eye else { return true }
        if let a = anchor, ((eye - a) * (eye - a)).sum() <= radius * radius { return true }
        anchor = eye
        return false
    }
}
