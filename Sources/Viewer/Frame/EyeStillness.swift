// EyeStillness — whether the eye is holding still, for the frame-time governor: still while it
// stays within a small radius of where it settled, a radius above the trackers' still jitter.
import RenderCore

/// Tells a still eye from a moving one, frame by frame.
public struct EyeStillness: Sendable {
    /// How far (metres) the eye may wander from where it settled and still count as still: 2 mm,
    /// several times the filtered trackers' still jitter (0.05–0.6 mm) and far below a deliberate move.
    public var radius: Float
    private var anchor: Vec3?

    public init(radius: Float = 0.002) { self.radius = radius }

    /// Whether `eye` (metres, screen coordinates) is within `radius` of the anchor; if not, it
    /// becomes the new anchor and the eye counts as moving. A lost head (nil) counts as still.
    public mutating func isStill(_ eye: Vec3?) -> Bool {
        guard let eye else { return true }
        if let a = anchor, (eye - a).length <= radius { return true }
        anchor = eye
        return false
    }
}
