// KalmanFilter — a constant-velocity Kalman filter for one coordinate of the eye, whose process
// noise grows with speed: still, it averages like a slow low-pass (jitter down); moving, it
// follows at once; and its velocity lets the tracker predict the eye at the moment a frame will
// be seen (`HeadTracker`, prediction to the photon).
import Foundation

/// A constant-velocity Kalman filter for one scalar (metres), with adaptive process noise.
///
/// State x = [p, v] (position, velocity); between samples dt apart it moves as
/// p ← p + v·dt, v ← φ·v (φ = 1 but near rest: `restTime`), with process noise from white acceleration of spectral density q
/// (m²/s³): Q = q·[dt³/3, dt²/2; dt²/2, dt]. A sample measures p with variance r = σ²
/// (σ = `noise`: `measurementNoise`, or the noise measured from the samples when larger).
///
/// **Adaptive q.** q = `stillNoise` + (`speedGain`·|v̂|)², v̂ the filtered speed: a head at
/// rest gets little process noise (heavy smoothing, low jitter) and a moving one much more
/// (the filter trusts new samples and its velocity follows). A single large innovation (a head
/// that starts to move) also raises q for that step: q is at least (`innovationGain`·e/dt)²·dt
/// for the innovation's excess over its noise e = max(0, |ν| − 2σ), so a start is followed
/// within a sample or two instead of the still
/// smoothing's time constant.
///
/// **Prediction.** `position(at:)` extrapolates p + v·h, h = t − t_last capped at `maxLead` (the
/// estimate is not trusted further). While the head slows down (the filtered acceleration â, a
/// smoothed derivative of v̂, opposes v̂), it brakes: the extrapolation runs at constant
/// deceleration and stops where the velocity would reach zero, p + v·h′ + ½â·h′² with
/// h′ = min(h, |v̂/â|) — so a head coming to rest is not predicted past where it stops. Near rest
/// the extrapolation fades out, by v̂²/(v̂² + v₀²) with v₀ = `restSpeed`: a still head's velocity
/// is noise, and extrapolating it tens of milliseconds would turn that noise into jitter.
/// The units: seconds, metres, metres per second.
public struct KalmanFilter: Sendable, Equatable {
    /// Standard deviation of a sample (metres): the tracker's noise.
    public var measurementNoise: Double
    /// Process noise (m²/s³) of a head at rest.
    public var stillNoise: Double
    /// How process noise grows with the filtered speed (1/s^0.5: q gains (gain·|v|)²).
    public var speedGain: Double
    /// How process noise follows a surprising sample (q ≥ (gain·|ν|/dt)²·dt).
    public var innovationGain: Double
    /// How much noisier a sample's depth (z) is than its sideways position, for `FilterSpec.kalman`'s
    /// z axis: a face's distance comes from its size in the image (a few pixels' change across
    /// the eyes), its position from where it is. On the latency rig a still head's depth wanders
    /// ~0.1 mm, its sideways position ~0.01 mm; with 4× the noise on z the still jitter halved
    /// (0.10 → 0.05 mm) at no cost in lag (the rig's paths move sideways and up).
    public static let depthNoiseRatio = 4.0
    /// The innovation gain `FilterSpec.kalman` uses unless told.
    public static let defaultInnovationGain = 1.0
    /// Longest extrapolation trusted (s); beyond it the position stops moving.
    public var maxLead: Double

    private var p = 0.0, v = 0.0
    /// The filtered acceleration (m/s²): an EMA (time constant `accelerationTime`) of Δv̂/Δt.
    private var acceleration = 0.0
    /// Time constant (s) of the acceleration's smoothing.
    /// (25 ms on the latency rig: 50 ms braked late enough to overshoot a stop by 12 mm, 20 ms
    /// kept it under 9 mm at no cost in lag.)
    public var accelerationTime = 0.025
    /// The speed (m/s) below which prediction fades out.
    public var restSpeed = 0.01
    /// The speed (m/s) below which the velocity decays (`restTime`): a few times a still head's
    /// wander. (10 mm/s held slow motion back: the rig's nod trailed by 42 ms, 29 ms at 3 mm/s.)
    public var wanderSpeed = 0.003
    /// How fast the velocity decays near rest (s): between samples it is multiplied by
    /// exp(−dt/τ), τ = `restTime`·(1 + (s/`wanderSpeed`)²), s the larger of |v̂| and the speed the new
    /// sample implies beyond its noise ((|innovation| − 2σ)/dt). A still head's slow wander (a few
    /// tenths of a millimetre a second in depth, from the face fit) is then followed like a
    /// low-pass follows it, not with the zero lag a constant-velocity model has on a ramp —
    /// the rig's still jitter 0.13 → 0.05 mm; moving (v̂ ≫ `wanderSpeed`) τ is seconds long and
    /// nothing changes. 0 turns the decay off.
    public var restTime = 0.1
    /// Whether prediction brakes while the head slows down (see the type's docs).
    public var brakes = true
    /// Whether the sample noise is also measured from the samples (`noise`): a noisier tracker
    /// than `measurementNoise` says (a real webcam in poor light) is then smoothed for the noise
    /// it has, not passed through as motion.
    public var adaptsNoise = true
    /// Covariance [[a, b], [b, c]].
    private var a = 0.0, b = 0.0, c = 0.0
    private var lastTime: Double?
    /// The noise the samples show (`SampleNoiseMeter`).
    private var meter = SampleNoiseMeter()

    /// Creates a filter; see the type's docs for the parameters.
    public init(measurementNoise: Double, stillNoise: Double, speedGain: Double, innovationGain: Double = 0, maxLead: Double = 0.1) {
        self.measurementNoise = measurementNoise; self.stillNoise = stillNoise; self.speedGain = speedGain
        self.innovationGain = innovationGain; self.maxLead = maxLead
    }

    /// The filtered position after the last sample (metres).
    public var position: Double { p }
    /// The filtered velocity (m/s).
    public var velocity: Double { v }
    /// The time of the last sample (s), nil before one.
    public var time: Double? { lastTime }

    /// The sample noise in effect (metres): `measurementNoise`, or when `adaptsNoise` the noise
    /// measured from the samples if larger — the median |second difference| of the last
    /// second's samples over 0.6745·√6 (white noise of σ gives second differences of spread
    /// σ√6; a smooth head's are far smaller at 30 Hz, and the median ignores a move's few
    /// large ones).
    public var noise: Double { adaptsNoise ? max(measurementNoise, meter.noise) : measurementNoise }

    /// Feeds `value` sampled at `t` (seconds); returns the filtered position at `t`. A sample not
    /// after the last one updates the position without moving time.
    public mutating func filter(_ value: Double, at t: Double) -> Double {
        if adaptsNoise && lastTime.map({ t > $0 }) ?? true { meter.add(value) }
        let sigma = noise, r = sigma * sigma
        guard let t0 = lastTime else {
            p = value; v = 0
            a = r; b = 0; c = (0.5 * 0.5)   // speed unknown: ±0.5 m/s
            lastTime = t
            return p
        }
        let dt = max(0, t - t0)
        // Predict (near rest the velocity decays: `restTime`; the speed that decides it is the
        // larger of the filtered one and the one the new sample implies beyond its noise, so a
        // start is not held back).
        let pp = p + v * dt
        let nu = value - pp
        let surprise = max(0, abs(nu) - 2 * sigma)
        let speedRatio = max(abs(v), dt > 0 ? surprise / dt : 0) / wanderSpeed
        let phi = restTime > 0 && dt > 0 ? exp(-dt / (restTime * (1 + speedRatio * speedRatio))) : 1
        v *= phi
        var q = stillNoise + (speedGain * v) * (speedGain * v)
        if dt > 0, innovationGain > 0 {
            let excess = innovationGain * surprise / dt
            q = max(q, excess * excess * dt)
        }
        let dt2 = dt * dt
        var pa = a + 2 * dt * b + dt2 * c + q * dt2 * dt / 3
        var pb = phi * (b + dt * c) + q * dt2 / 2
        var pc = phi * phi * c + q * dt
        // Update.
        let s = pa + r
        let ka = pa / s, kb = pb / s
        p = pp + ka * nu
        let previousV = v
        v = v + kb * nu
        if dt > 0 {
            let w = 1 - exp(-dt / accelerationTime)
            acceleration += w * ((v - previousV) / dt - acceleration)
        }
        let na = (1 - ka) * pa
        let nb = (1 - ka) * pb
        let nc = pc - kb * pb
        pa = na; pb = nb; pc = nc
        a = pa; b = pb; c = pc
        lastTime = max(t, t0)
        return p
    }

    /// The position predicted at time `t` (s): p + v·min(t − t_last, `maxLead`); the last
    /// position before any sample's velocity is known.
    public func position(at t: Double) -> Double {
        guard let t0 = lastTime else { return p }
        let fade = v * v / (v * v + restSpeed * restSpeed)
        let ahead = min(max(t - t0, 0), maxLead) * fade
        if brakes && acceleration * v < 0 {
            // Slowing down: constant deceleration until the velocity reaches zero.
            let h = min(ahead, abs(v / acceleration))
            return p + v * h + 0.5 * acceleration * h * h
        }
        return p + v * ahead
    }

    /// Forgets the state.
    public mutating func reset() {
        lastTime = nil; p = 0; v = 0; acceleration = 0
        meter.reset()
    }
}
