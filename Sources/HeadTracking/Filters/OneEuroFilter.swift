// OneEuroFilter — Casiez, Roussel & Vogel, "1€ Filter", CHI 2012, as the authors' reference code.
import Foundation

/// The 1€ filter for one scalar signal, following the authors' reference implementation
/// (github.com/casiez/OneEuroFilter, C++/Python, revision of 08/2023):
/// - low-pass: s = α·x + (1 − α)·s₋₁, the first value passes through;
/// - α(fc) = 1 / (1 + τ/Tₑ), τ = 1/(2π·fc), Tₑ = 1/freq;
/// - freq is updated from timestamps, freq = 1/(t − t₋₁), when t > t₋₁ (initially `frequency`);
/// - derivative ẋ = (x − x̂₋₁)·freq against the previous *filtered* value (0 for the first sample),
///   smoothed with cutoff `dCutoff`;
/// - cutoff = `minCutoff` + β·|ẋ̂|, then x is low-passed with α(cutoff).
/// Units: seconds and Hz; β in 1/(signal unit) — metres here.
public struct OneEuroFilter: Sendable {
    /// Minimum cutoff frequency in Hz (> 0): lower removes more jitter at rest.
    public var minCutoff: Double
    /// Speed coefficient β (≥ 0): higher reduces lag during fast motion.
    public var beta: Double
    /// Cutoff for the derivative in Hz (> 0).
    public var dCutoff: Double
    /// Current sampling frequency estimate in Hz.
    public private(set) var frequency: Double
    private var x: Double?           // last filtered value
    private var dx: Double?          // last filtered derivative
    private var lastTime: Double?

    /// Creates a filter; `frequency` is the rate assumed until two timestamps are seen (Hz).
    public init(minCutoff: Double = 1.0, beta: Double = 0.0, dCutoff: Double = 1.0, frequency: Double = 30) {
        self.minCutoff = minCutoff; self.beta = beta; self.dCutoff = dCutoff; self.frequency = frequency
    }

    /// α for a cutoff `fc` (Hz) at the current frequency.
    public func alpha(cutoff fc: Double) -> Double {
        let te = 1.0 / frequency
        let tau = 1.0 / (2 * Double.pi * fc)
        return 1.0 / (1.0 + tau / te)
    }

    /// Filters `value` observed at time `t` (seconds).
    public mutating func filter(_ value: Double, at t: Double) -> Double {
        if let lt = lastTime, t > lt { frequency = 1.0 / (t - lt) }
        lastTime = t
        let derivative = x.map { (value - $0) * frequency } ?? 0
        let ad = alpha(cutoff: dCutoff)
        let edx = dx.map { ad * derivative + (1 - ad) * $0 } ?? derivative
        dx = edx
        let cutoff = minCutoff + beta * abs(edx)
        let a = alpha(cutoff: cutoff)
        let out = x.map { a * value + (1 - a) * $0 } ?? value
        x = out
        return out
    }

    /// Forgets the state (keeps the parameters and the frequency estimate).
    public mutating func reset() { x = nil; dx = nil; lastTime = nil }
}
