// AccelerationKalmanFilter — a constant-acceleration Kalman filter for one coordinate of the eye,
// built to predict: a head's sway curves over the ~65 ms from a webcam's exposure to the photon,
// and a model that knows acceleration follows the curve where a constant-velocity one cuts the
// corner. A sample the model did not expect (a start, a stop) opens it up for that step. A
// still or slow head is left to a constant-velocity filter, which holds it steadier.
import Foundation

/// A constant-acceleration Kalman filter for one scalar (metres), with an innovation gate.
///
/// State x = [p, v, a] (metres, m/s, m/s²); between samples dt apart it moves as
/// p ← p + v·dt + ½a·dt², v ← v + a·dt, with process noise from white jerk of spectral density q
/// (m²/s⁵): Q = q·[dt⁵/20, dt⁴/8, dt³/6; dt⁴/8, dt³/3, dt²/2; dt³/6, dt²/2, dt]. A sample measures p
/// with variance r = σ² (σ = `noise`: `measurementNoise`, or the noise measured from the samples
/// when larger).
///
/// **The gate.** A smooth head fits the model and a small q keeps the velocity and acceleration
/// steady (a sway is predicted without noise). A head that starts or stops does not: when a
/// sample's innovation ν passes `gate` standard deviations of its prediction (√S), q is raised
/// for that step until it would lie on the gate (at most `gateBoost`·q), so the filter follows the
/// change within a sample or two instead of coasting past a stop.
///
/// **Prediction.** `position(at:)` extrapolates p + v·h + ½a·h², h = t − t_last capped at
/// `maxLead`. While the head slows down (a opposes v) the extrapolation stops where the velocity
/// would reach zero (h ≤ |v/a|): a head coming to rest is not predicted past where it stops. Near
/// rest the extrapolation fades out by v²/(v² + v₀²), v₀ = `restSpeed`: a still head's velocity
/// is noise, and extrapolating it would turn the noise into jitter.
///
/// **Still and slow heads.** A constant-acceleration model smooths a still head's noise far
/// less than `KalmanFilter`, whose process noise falls with speed (a webcam's σ = 2 mm gave
/// 2.6 mm of still jitter after prediction against 0.8 mm). So the output blends the two: the
/// constant-velocity filter's (`steady`, fed the same samples) plus w·(this model's − it), with
/// w = s²/(s² + v₀²) and v₀ = max(`restSpeed`, `noiseSpeedRatio`·σₘ), σₘ the noise the samples
/// show. A noisy tracker thus needs a faster head before the acceleration model takes over; a
/// clean one (σₘ ≈ 0.1 mm) hands over at a few centimetres a second. s is the model's speed, or
/// the speed it had lately if that was more: the peak of v² decaying by e^(−Δt/τ), τ =
/// `motionMemory`. A swaying head passes through zero speed at each turn, exactly where the
/// acceleration model earns its keep (it knows the head comes back); by its speed alone the
/// blend gave those moments to the constant-velocity filter, which trails the turn (4 mm past it
/// on the rig's sway, 60 ms on). A head that has been still for a few τ has only its noise.
///
/// Tuned on the latency rig's traces (`splatframe track latency-replay`); see `FilterSpec.default`.
public struct AccelerationKalmanFilter: Sendable, Equatable {
    /// Standard deviation of a sample (metres): the tracker's noise.
    public var measurementNoise: Double
    /// Spectral density of the white jerk (m²/s⁵) a smooth head is modelled with.
    public var jerkNoise: Double
    /// Innovations beyond this many standard deviations raise the process noise for that step.
    public var gate: Double
    /// The most the gate raises the process noise (×`jerkNoise`).
    public var gateBoost = 30.0
    /// Longest extrapolation trusted (s); beyond it the position stops moving.
    public var maxLead: Double
    /// The speed (m/s) below which prediction fades out.
    public var restSpeed = 0.01
    /// Whether the sample noise is also measured from the samples (`noise`).
    public var adaptsNoise = true
    /// v₀ per metre of measured sample noise (1/s): see "Still and slow heads". 300 kept the
    /// still jitter of the noisy real log (σ 0.5, 2, 4 mm; `track filter --noise`) within 1 % of
    /// `KalmanFilter`'s; 100 gave 9 % more, and the rig's sway 0.1 mm less error.
    public var noiseSpeedRatio = 300.0
    /// How long (s) a speed is remembered by the blend (see "Still and slow heads"). 0.5 s:
    /// on the rig's traces the sway's error fell 2.94 → 2.6 mm (30 fps camera) and 3.21 →
    /// 2.8 mm (the 1M capture warped), flat beyond 0.7 s; the noisy real log's still jitter
    /// rose 1 % and a step's overshoot 0.4 mm.
    public var motionMemory = 0.5
    /// The constant-velocity filter a still or slow head is left to.
    public var steady: KalmanFilter

    private var p = 0.0, v = 0.0, a = 0.0
    /// Covariance, symmetric: [[pp, pv, pa], [pv, vv, va], [pa, va, aa]].
    private var pp = 0.0, pv = 0.0, pa = 0.0, vv = 0.0, va = 0.0, aa = 0.0
    private var lastTime: Double?
    /// The largest v² lately, decaying by e^(−Δt/`motionMemory`) ((m/s)²).
    private var recentSpeed2 = 0.0
    private var meter = SampleNoiseMeter()

    /// Creates a filter; see the type's docs for the parameters.
    public init(measurementNoise: Double, jerkNoise: Double, gate: Double, steady: KalmanFilter, maxLead: Double = 0.1) {
        self.measurementNoise = measurementNoise; self.jerkNoise = jerkNoise; self.gate = gate; self.steady = steady
        self.maxLead = maxLead
    }

    /// The filtered position after the last sample (metres; the blend, see the type's docs).
    public var position: Double { blend(p, steady.position) }
    /// The filtered velocity (m/s).
    public var velocity: Double { v }
    /// The filtered acceleration (m/s²).
    public var acceleration: Double { a }
    /// The time of the last sample (s), nil before one.
    public var time: Double? { lastTime }
    /// The sample noise in effect (metres): `measurementNoise`, or when `adaptsNoise` the noise
    /// the samples show (`SampleNoiseMeter`) if larger.
    public var noise: Double { adaptsNoise ? max(measurementNoise, meter.noise) : measurementNoise }

    /// Feeds `value` sampled at `t` (seconds); returns the filtered position at `t` (the blend).
    /// A sample not after the last one updates the position without moving time.
    public mutating func filter(_ value: Double, at t: Double) -> Double {
        let base = steady.filter(value, at: t)
        let own = update(value, at: t)    // before `blend` reads the new velocity
        return blend(own, base)
    }

    /// The constant-acceleration model's own update; returns its position.
    private mutating func update(_ value: Double, at t: Double) -> Double {
        if adaptsNoise && lastTime.map({ t > $0 }) ?? true { meter.add(value) }
        let sigma = noise, r = sigma * sigma
        guard let t0 = lastTime else {
            p = value; v = 0; a = 0
            pp = r; pv = 0; pa = 0
            vv = 0.5 * 0.5; va = 0; aa = 2 * 2   // speed and acceleration unknown: ±0.5 m/s, ±2 m/s²
            lastTime = t
            return p
        }
        let dt = max(0, t - t0), dt2 = dt * dt
        // Predict: x ← F x and P ← F P Fᵀ, F = [1 dt dt²/2; 0 1 dt; 0 0 1].
        let xp = p + v * dt + 0.5 * a * dt2, xv = v + a * dt
        // Rows of F P.
        let r0 = (pp + dt * pv + 0.5 * dt2 * pa, pv + dt * vv + 0.5 * dt2 * va, pa + dt * va + 0.5 * dt2 * aa)
        let r1 = (pv + dt * pa, vv + dt * va, va + dt * aa)
        let r2 = (pa, va, aa)
        // (F P) Fᵀ: column j of Fᵀ is row j of F.
        func times(_ row: (Double, Double, Double)) -> (Double, Double, Double) {
            (row.0 + dt * row.1 + 0.5 * dt2 * row.2, row.1 + dt * row.2, row.2)
        }
        let m0 = times(r0), m1 = times(r1), m2 = times(r2)
        // Q's shape (per unit q).
        let qpp = dt2 * dt2 * dt / 20, qpv = dt2 * dt2 / 8, qpa = dt2 * dt / 6
        let qvv = dt2 * dt / 3, qva = dt2 / 2, qaa = dt
        let nu = value - xp
        var q = jerkNoise
        if qpp > 0 {
            let s = m0.0 + q * qpp + r
            if nu * nu > gate * gate * s {
                // Raise q until ν lies on the gate: m0.0 + q·qpp + r = (ν/gate)².
                let needed = (nu / gate) * (nu / gate) - m0.0 - r
                q = min(max(q, needed / qpp), jerkNoise * gateBoost)
            }
        }
        let cpp = m0.0 + q * qpp, cpv = m0.1 + q * qpv, cpa = m0.2 + q * qpa
        let cvv = m1.1 + q * qvv, cva = m1.2 + q * qva, caa = m2.2 + q * qaa
        // Update with the sample: K = P[:, 0] / S.
        let s = cpp + r
        let kp = cpp / s, kv = cpv / s, ka = cpa / s
        p = xp + kp * nu; v = xv + kv * nu; a = a + ka * nu
        // P ← P − K·P[0, :].
        pp = cpp - kp * cpp; pv = cpv - kp * cpv; pa = cpa - kp * cpa
        vv = cvv - kv * cpv; va = cva - kv * cpa; aa = caa - ka * cpa
        recentSpeed2 = motionMemory > 0 ? max(v * v, recentSpeed2 * exp(-dt / motionMemory)) : v * v
        lastTime = max(t, t0)
        return p
    }

    /// `own` (this model's) blended with `base` (`steady`'s) by this model's recent speed.
    private func blend(_ own: Double, _ base: Double) -> Double {
        let v0 = max(restSpeed, noiseSpeedRatio * meter.noise)
        let s2 = max(v * v, recentSpeed2)
        let w = s2 / (s2 + v0 * v0)
        return base + w * (own - base)
    }

    /// The position predicted at time `t` (s): the blend of this model's extrapolation and
    /// `steady`'s; see the type's docs.
    public func position(at t: Double) -> Double { blend(extrapolated(to: t), steady.position(at: t)) }

    /// This model's own extrapolation to `t`.
    private func extrapolated(to t: Double) -> Double {
        guard let t0 = lastTime else { return p }
        var h = min(max(t - t0, 0), maxLead)
        if a * v < 0 { h = min(h, abs(v / a)) }
        let fade = v * v / (v * v + restSpeed * restSpeed)
        return p + (v * h + 0.5 * a * h * h) * fade
    }

    /// Forgets the state.
    public mutating func reset() {
        lastTime = nil; p = 0; v = 0; a = 0; recentSpeed2 = 0
        meter.reset(); steady.reset()
    }
}
