// DoubleExponentialPredictor — LaViola's double exponential smoothing-based prediction (2003).
import Foundation

/// Double exponential smoothing prediction (J. LaViola, "Double Exponential Smoothing: An
/// Alternative to Kalman Filter-Based Predictive Tracking", EGVE 2003):
/// S = α·x + (1 − α)·S₋₁, S² = α·S + (1 − α)·S²₋₁, and the position k samples ahead is
/// P = (2 + α·k/(1 − α))·S − (1 + α·k/(1 − α))·S².
/// Here k = horizon/dt for the actual sample interval dt, and α is rate-independent like
/// `EMAFilter`: α = 1 − exp(−dt/τ) with α = `alpha30` (default 0.5) at 30 Hz.
public struct DoubleExponentialPredictor: Sendable {
    /// How far ahead to predict, in seconds.
    public var horizon: Double
    /// α at 30 Hz (0 < α < 1).
    public let alpha30: Double
    private let tau: Double
    private var s1: Vec3d?
    private var s2: Vec3d = .zero
    private var lastTime: Double = 0
    private var lastOut: Vec3d = .zero
    private var lastAlpha = 0.5, lastDt = 1.0 / 30

    /// Creates a predictor looking `horizon` seconds ahead.
    public init(horizon: Double, alpha30: Double = 0.5) {
        self.horizon = horizon
        self.alpha30 = min(max(alpha30, 0.01), 0.99)
        tau = -(1.0 / 30.0) / log(1 - self.alpha30)
    }

    /// Feeds the sample `x` at time `t` (seconds) and returns the predicted position at t + horizon.
    public mutating func predict(_ x: Vec3d, at t: Double) -> Vec3d {
        guard let p1 = s1 else { s1 = x; s2 = x; lastTime = t; lastOut = x; return x }
        let dt = t - lastTime
        guard dt > 0 else { return lastOut }
        let a = 1 - exp(-dt / tau)
        let n1 = a * x + (1 - a) * p1
        let n2 = a * n1 + (1 - a) * s2
        s1 = n1; s2 = n2; lastTime = t
        lastAlpha = a; lastDt = dt
        let k = horizon / dt
        let c = a * k / (1 - a)
        lastOut = (2 + c) * n1 - (1 + c) * n2
        return lastOut
    }

    /// The position `ahead` seconds after the last sample, from the current smoothed level and
    /// trend (the same formula as `predict`, for any horizon: the frame loop asks once per frame
    /// for its own expected present time). The last sample itself before two samples arrived.
    public func extrapolate(ahead: Double) -> Vec3d {
        guard let n1 = s1 else { return lastOut }
        let a = lastAlpha, k = max(0, ahead) / lastDt
        let c = a * k / (1 - a)
        return (2 + c) * n1 - (1 + c) * s2
    }

    /// Forgets the state.
    public mutating func reset() { s1 = nil }
}
