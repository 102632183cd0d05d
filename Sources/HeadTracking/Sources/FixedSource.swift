// FixedSource — a head that never moves (`--eye X,Y,Z`).
import RenderCore

/// A source that always reports one eye position (metres, screen space), stamped with the
/// time of reading so it never goes stale.
public final class FixedSource: PoseSource {
    /// The eye position in metres, screen space.
    public let eye: Vec3d
    private let clock: ClockFunction

    /// Creates a fixed source at `eye` (metres, screen space); `clock` stamps the samples.
    public init(eye: Vec3d, clock: @escaping ClockFunction = MonotonicClock.now) {
        self.eye = eye; self.clock = clock
    }

    public var name: String { "fixed:\(eye.x),\(eye.y),\(eye.z)" }
    public func start() throws {}
    public func stop() {}
    public func latest() -> PoseSample? { PoseSample(timestamp: clock(), position: eye) }
}
