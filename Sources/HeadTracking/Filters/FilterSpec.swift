// FilterSpec — which smoothing filter to use, parsed from `kalman:NOISE,GAIN,INNOVATION`,
// `oneeuro:MIN,BETA,DCUT`, `ema:ALPHA`, `none`.

/// A filter choice. Text forms (CLI `--filter`, config `filter`):
/// `none`; `ema` or `ema:ALPHA` (α at 30 Hz, 0 < α ≤ 1, default 0.3);
/// `oneeuro` or `oneeuro:MINCUTOFF,BETA,DCUTOFF` (Hz, s/m, Hz; default 0.3,20,1 — tuned);
/// `kalman` or `kalman:NOISE_MM,GAIN[,INNOVATION]` (constant velocity: 0.5,3,1, tuned on the
/// latency rig — `defaultKalman`); `kalman-ca` or `kalman-ca:NOISE_MM,JERK,GATE` (constant
/// acceleration, the default filter: 0.6,3,3, tuned on the rig's traces — `defaultAccelerationKalman`).
///
/// **How the One Euro default was measured.** On the real head trajectory
/// (`headtracks/traj1_tool1_gt.tum.txt`, mocap ground truth, 4,731 poses at 30 Hz) with
/// seeded Gaussian noise of σ = 2 mm per axis added to mimic a webcam tracker
/// (`splatframe track filter LOG --noise 2 --filter …`), jitter and lag were measured with
/// `TrackingAnalysis` (still windows and lag against the clean track). The rule: the lowest
/// lag whose jitter is at most half that of the EMA default (ema:0.3 → 1.03 mm, 77 ms), over
/// mincutoff ∈ {0.3, 0.5, 1.0} Hz × β ∈ {0, 2, 5, 10, 15, 20, 25, 30, 40} s/m, dcutoff 1 Hz.
/// Winner: 0.3,20,1 → 0.48 mm, 36 ms (the authors' 1.0,0.0,1.0 gives 0.61 mm but 154 ms;
/// 0.5,10,1 gives 0.46 mm, 49 ms). The authors' defaults stay available as `authorsOneEuro`.
public enum FilterSpec: Equatable, Sendable, CustomStringConvertible {
    /// No smoothing.
    case none
    /// Rate-independent EMA with α = `alpha` at 30 Hz.
    case ema(alpha: Double)
    /// One Euro filter per axis.
    case oneEuro(minCutoff: Double, beta: Double, dCutoff: Double)
    /// A constant-velocity Kalman filter per axis (`KalmanFilter`): sample noise σ (metres; the
    /// depth axis takes `KalmanFilter.depthNoiseRatio` times it) and how its process noise grows
    /// with speed; it predicts by its own velocity.
    case kalman(noise: Double, speedGain: Double, innovationGain: Double = KalmanFilter.defaultInnovationGain)
    /// A constant-acceleration Kalman filter per axis (`AccelerationKalmanFilter`): sample noise
    /// σ (metres; the depth axis takes `KalmanFilter.depthNoiseRatio` times it), the white jerk's
    /// spectral density (m²/s⁵) and the innovation gate (standard deviations); it predicts by its
    /// own velocity and acceleration.
    case kalmanAcceleration(noise: Double, jerk: Double, gate: Double)

    /// EMA with α = 0.3 at 30 Hz.
    public static let defaultEMA = FilterSpec.ema(alpha: 0.3)
    /// One Euro with the authors' defaults (mincutoff 1 Hz, β 0, dcutoff 1 Hz).
    public static let authorsOneEuro = FilterSpec.oneEuro(minCutoff: 1.0, beta: 0.0, dCutoff: 1.0)
    /// One Euro as tuned on the real log (see the type's docs): mincutoff 0.3 Hz, β 20 s/m, dcutoff 1 Hz.
    public static let defaultOneEuro = FilterSpec.oneEuro(minCutoff: 0.3, beta: 20, dCutoff: 1.0)
    /// The Kalman filter as tuned on the latency rig (`splatframe track latency`): σ 0.5 mm,
    /// speed gain 3, innovation gain 1 (σ 1 mm trailed the sway by 10 ms, 0.5 mm by 8).
    public static let defaultKalman = FilterSpec.kalman(noise: 0.0005, speedGain: 3)
    /// The constant-acceleration Kalman filter as tuned on the latency rig's traces
    /// (`splatframe track latency-replay`, 30 and 60 fps sways and steps, two runs each): σ 0.6 mm,
    /// jerk 3 m²/s⁵, gate 3σ. Over σ ∈ {0.5…0.8} mm × jerk ∈ {1…5} × gate ∈ {3, 3.5, 4} the sway's
    /// error stayed within 3.0–3.4 mm (the tracker's own error is most of it); this one overshot
    /// a stop least among those with the lowest error.
    public static let defaultAccelerationKalman = FilterSpec.kalmanAcceleration(noise: 0.0006, jerk: 3, gate: 3)
    /// The tracker's default filter: the constant-acceleration Kalman filter, which on the latency
    /// rig trails a swaying head by ~3 ms where the constant-velocity one trailed it by ~9 (and One
    /// Euro, with the same prediction, by ~40), overshoots a stop by ~7 mm against ~11, and holds a
    /// still head as steady.
    public static let `default` = defaultAccelerationKalman

    /// Parses the text form (case-insensitive, spaces ignored).
    public init(parsing text: String) throws {
        let t = text.lowercased().filter { $0 != " " }
        let expected = "none, ema[:ALPHA] (0<α≤1), oneeuro[:MINCUTOFF,BETA,DCUTOFF] (cutoffs > 0, β ≥ 0), kalman[:NOISE_MM,GAIN[,INNOVATION]] (noise > 0, gains ≥ 0) or kalman-ca[:NOISE_MM,JERK,GATE] (all > 0)"
        let bad = HeadTrackingError.badSpec(what: "filter", value: text, expected: expected)
        let parts = t.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let kind = parts.first.map(String.init) ?? ""
        let args: [Double]
        if parts.count == 2 {
            let items = parts[1].split(separator: ",", omittingEmptySubsequences: false)
            let nums = items.compactMap { Double($0) }.filter(\.isFinite)
            guard nums.count == items.count else { throw bad }
            args = nums
        } else { args = [] }
        switch kind {
        case "none", "off":
            guard args.isEmpty else { throw bad }
            self = .none
        case "ema":
            guard args.count <= 1 else { throw bad }
            let a = args.first ?? 0.3
            guard a > 0, a <= 1 else { throw bad }
            self = .ema(alpha: a)
        case "oneeuro", "1euro", "one-euro":
            guard args.isEmpty || args.count == 3 else { throw bad }
            let v = args.isEmpty ? [0.3, 20, 1.0] : args
            guard v[0] > 0, v[1] >= 0, v[2] > 0 else { throw bad }
            self = .oneEuro(minCutoff: v[0], beta: v[1], dCutoff: v[2])
        case "kalman":
            guard args.isEmpty || args.count == 2 || args.count == 3 else { throw bad }
            let v = args.isEmpty ? [0.5, 3, KalmanFilter.defaultInnovationGain] : args.count == 2 ? args + [KalmanFilter.defaultInnovationGain] : args
            guard v[0] > 0, v[0] <= 1000, v[1] >= 0, v[1] <= 1000, v[2] >= 0, v[2] <= 100 else { throw bad }
            self = .kalman(noise: v[0] / 1000, speedGain: v[1], innovationGain: v[2])
        case "kalman-ca":
            guard args.isEmpty || args.count == 3 else { throw bad }
            let v = args.isEmpty ? [0.6, 3, 3] : args
            guard v[0] > 0, v[0] <= 1000, v[1] > 0, v[1] <= 1e6, v[2] > 0, v[2] <= 100 else { throw bad }
            self = .kalmanAcceleration(noise: v[0] / 1000, jerk: v[1], gate: v[2])
        default: throw bad
        }
    }

    public var description: String {
        switch self {
        case .none: return "none"
        case .ema(let a): return "ema:\(Self.number(a))"
        case let .oneEuro(m, b, d): return "oneeuro:\(Self.number(m)),\(Self.number(b)),\(Self.number(d))"
        case let .kalman(n, g, i): return "kalman:\(Self.number(n * 1000)),\(Self.number(g))" + (i == KalmanFilter.defaultInnovationGain ? "" : ",\(Self.number(i))")
        case let .kalmanAcceleration(n, j, g): return "kalman-ca:\(Self.number(n * 1000)),\(Self.number(j)),\(Self.number(g))"
        }
    }

    /// A number as a user would type it: `20`, not `20.0`.
    private static func number(_ v: Double) -> String { String(format: "%g", v) }

    /// A fresh filter for 3-D positions.
    public func makeFilter() -> PositionFilter { PositionFilter(self) }
}

/// A stateful 3-D position filter built from a `FilterSpec` (value type; copy to fork state).
public struct PositionFilter: Sendable {
    private enum Impl: Sendable {
        case none
        case ema(EMAFilter)
        case oneEuro(OneEuroFilter, OneEuroFilter, OneEuroFilter)
        case kalman(KalmanFilter, KalmanFilter, KalmanFilter)
        case acceleration(AccelerationKalmanFilter, AccelerationKalmanFilter, KalmanFilter)
    }
    private var impl: Impl
    /// The spec this filter was built from.
    public let spec: FilterSpec

    /// Creates the filter for `spec`.
    public init(_ spec: FilterSpec) {
        self.spec = spec
        switch spec {
        case .none: impl = .none
        case .ema(let a): impl = .ema(EMAFilter(alpha30: a))
        case let .oneEuro(m, b, d):
            let f = OneEuroFilter(minCutoff: m, beta: b, dCutoff: d)
            impl = .oneEuro(f, f, f)
        case let .kalman(n, g, i):
            let side = Self.sideKalman(noise: n, speedGain: g, innovationGain: i)
            impl = .kalman(side, side, Self.depthKalman(noise: n, speedGain: g, innovationGain: i))
        case let .kalmanAcceleration(n, j, g):
            let f = AccelerationKalmanFilter(measurementNoise: n, jerkNoise: j, gate: g, steady: Self.sideKalman(noise: n), maxLead: 0.1)
            impl = .acceleration(f, f, Self.depthKalman(noise: n))
        }
    }

    /// The sideways and vertical constant-velocity filter: `kalman`'s x and y, and what
    /// `kalmanAcceleration` leaves a still or slow head to. Its velocity never decays (see
    /// `depthKalman`).
    private static func sideKalman(noise n: Double, speedGain g: Double = 3,
                                   innovationGain i: Double = KalmanFilter.defaultInnovationGain) -> KalmanFilter {
        var f = KalmanFilter(measurementNoise: n, stillNoise: 1e-5, speedGain: g, innovationGain: i, maxLead: 0.1)
        f.restTime = 0
        return f
    }

    /// The depth axis of both Kalman specs: constant velocity, `KalmanFilter.depthNoiseRatio`
    /// times the sample noise, its velocity decaying near rest. Only depth's velocity decays
    /// (`KalmanFilter.restTime`): its wander is what a still head shows (0.13 → 0.05 mm on the
    /// rig), and sideways the decay held slow motion back (the rig's nod trailed by 41 ms with
    /// it, 30 without). A constant-acceleration depth followed that wander (0.18 mm of still
    /// jitter on the rig's trace) and its error while swaying grew (1.6 → 2.6 mm), so
    /// `kalmanAcceleration` keeps this one for depth too.
    private static func depthKalman(noise n: Double, speedGain g: Double = 3,
                                    innovationGain i: Double = KalmanFilter.defaultInnovationGain) -> KalmanFilter {
        KalmanFilter(measurementNoise: n * KalmanFilter.depthNoiseRatio, stillNoise: 1e-5, speedGain: g, innovationGain: i, maxLead: 0.1)
    }

    /// Whether the filter predicts by its own motion model (`predicted(at:)`); the tracker then
    /// needs no separate predictor.
    public var predicts: Bool {
        switch impl {
        case .kalman, .acceleration: return true
        case .none, .ema, .oneEuro: return false
        }
    }

    /// The position the filter's motion model expects at `t` (seconds), when it has one.
    public func predicted(at t: Double) -> Vec3d? {
        switch impl {
        case let .kalman(x, y, z): return Vec3d(x.position(at: t), y.position(at: t), z.position(at: t))
        case let .acceleration(x, y, z): return Vec3d(x.position(at: t), y.position(at: t), z.position(at: t))
        case .none, .ema, .oneEuro: return nil
        }
    }

    /// Filters the position `x` (metres) sampled at `t` (seconds).
    public mutating func filter(_ x: Vec3d, at t: Double) -> Vec3d {
        switch impl {
        case .none: return x
        case .ema(var f):
            let y = f.filter(x, at: t); impl = .ema(f); return y
        case .oneEuro(var fx, var fy, var fz):
            let y = Vec3d(fx.filter(x.x, at: t), fy.filter(x.y, at: t), fz.filter(x.z, at: t))
            impl = .oneEuro(fx, fy, fz); return y
        case .kalman(var fx, var fy, var fz):
            let y = Vec3d(fx.filter(x.x, at: t), fy.filter(x.y, at: t), fz.filter(x.z, at: t))
            impl = .kalman(fx, fy, fz); return y
        case .acceleration(var fx, var fy, var fz):
            let y = Vec3d(fx.filter(x.x, at: t), fy.filter(x.y, at: t), fz.filter(x.z, at: t))
            impl = .acceleration(fx, fy, fz); return y
        }
    }

    /// Forgets the state.
    public mutating func reset() { self = PositionFilter(spec) }

    /// Filters a whole log offline (sample timestamps as time), keeping everything else.
    public static func apply(_ spec: FilterSpec, predictHorizon: Double? = nil, to log: PoseLog) -> PoseLog {
        var f = PositionFilter(spec)
        var p = predictHorizon.map { DoubleExponentialPredictor(horizon: $0) }
        var out = log
        for i in out.samples.indices {
            let s = out.samples[i]
            var y = f.filter(s.position, at: s.timestamp)
            if var pp = p { y = pp.predict(y, at: s.timestamp); p = pp }
            out.samples[i].position = y
        }
        return out
    }
}
