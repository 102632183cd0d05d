// EMAFilter — rate-independent exponential moving average.
import Foundation

/// Exponential moving average x̂ₖ = α·xₖ + (1 − α)·x̂ₖ₋₁, made independent of the sample rate:
/// α = 1 − exp(−dt/τ) for the actual interval dt (seconds) between samples. The time
/// constant τ is chosen from "α at 30 Hz" (`alpha30`, default 0.3):
/// τ = −(1/30 s) / ln(1 − α₃₀) ≈ 0.0935 s for α₃₀ = 0.3, so at exactly 30 Hz the filter is
/// the textbook EMA with α = 0.3, and at 60 Hz each step uses α ≈ 0.163 (same smoothing per second).
/// The first sample passes through unchanged; a repeated timestamp (dt ≤ 0) leaves the state alone.
public struct EMAFilter: Sendable {
    /// α at a 30 Hz sample rate (0 < α ≤ 1; 1 disables smoothing).
    public let alpha30: Double
    /// The time constant τ in seconds (0 when α₃₀ = 1).
    public let timeConstant: Double
    private var state: Vec3d?
    private var lastTime: Double = 0

    /// Creates an EMA whose α is `alpha30` at 30 Hz.
    public init(alpha30: Double = 0.3) {
        self.alpha30 = alpha30
        timeConstant = alpha30 >= 1 ? 0 : -(1.0 / 30.0) / log(1 - alpha30)
    }

    /// α for a sample interval of `dt` seconds.
    public func alpha(dt: Double) -> Double {
        timeConstant <= 0 ? 1 : 1 - exp(-dt / timeConstant)
    }

    /// Filters the sample `x` taken at time `t` (seconds) and returns the estimate.
    public mutating func filter(_ x: Vec3d, at t: Double) -> Vec3d {
        guard let s = state else { state = x; lastTime = t; return x }
        let dt = t - lastTime
        guard dt > 0 else { return s }
        let a = alpha(dt: dt)
        let next = a * x + (1 - a) * s
        state = next; lastTime = t
        return next
    }

    /// Forgets the state (the next sample passes through).
    public mutating func reset() { state = nil }
}
