// MouseSource — the cursor as a stand-in head (the default without a webcam).
import RenderCore
import Workers

/// Maps the cursor over the window to an eye position: the window spans the physical
/// screen, so the cursor at a window edge puts the eye over that screen edge, at a
/// distance (z) the wheel changes. The window thread calls `update`/`scroll`; the frame
/// loop calls `latest()`. Samples are stamped at read time: the cursor's last position holds.
public final class MouseSource: PoseSource {
    /// Screen width and height in metres.
    public let screenSize: SIMD2<Double>
    /// Metres of z per wheel notch (positive delta = wheel away from the user = closer).
    public let metresPerNotch: Double
    /// Allowed z range in metres.
    public let zRange: ClosedRange<Double>
    private let clock: ClockFunction
    private let state: Locked<Vec3d>

    /// Creates a mouse source for a screen of `screenSize` metres (width, height), starting at
    /// the centre with z = `distance` metres (0.6 by default).
    public init(screenSize: SIMD2<Double>, distance: Double = 0.6, metresPerNotch: Double = 0.05,
                zRange: ClosedRange<Double> = 0.1...3.0, clock: @escaping ClockFunction = MonotonicClock.now) {
        self.screenSize = screenSize
        self.metresPerNotch = metresPerNotch
        self.zRange = zRange
        self.clock = clock
        self.state = Locked(Vec3d(0, 0, distance))
    }

    public var name: String { "mouse" }
    public func start() throws {}
    public func stop() {}

    /// The cursor moved. `normalizedX` is 0 at the window's left edge and 1 at its right;
    /// `normalizedY` is 0 at the top and 1 at the bottom (pixel convention). Values outside
    /// 0…1 (cursor outside the window) are clamped.
    public func update(normalizedX: Double, normalizedY: Double) {
        guard normalizedX.isFinite, normalizedY.isFinite else { return }
        let nx = min(max(normalizedX, 0), 1), ny = min(max(normalizedY, 0), 1)
        let x = (nx - 0.5) * screenSize.x, y = (0.5 - ny) * screenSize.y
        state.withLock { $0.x = x; $0.y = y }
    }

    /// The wheel turned by `delta` notches (positive = away from the user = eye moves closer).
    public func scroll(delta: Double) {
        guard delta.isFinite else { return }
        state.withLock { s in
            s.z = min(max(s.z - delta * metresPerNotch, zRange.lowerBound), zRange.upperBound)
        }
    }

    public func latest() -> PoseSample? {
        let p = state.withLock { $0 }
        return PoseSample(timestamp: clock(), position: p)
    }
}
