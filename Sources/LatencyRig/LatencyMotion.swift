// LatencyMotion — the known head paths of the latency rig: a sway, a quick move and stop, a nod,
// and a walk replayed from a real head log. Each gives the head's placement (and so its true eye)
// at any time, so every presented frame can be scored against where the eye really was.
import Foundation
import HeadRig
import HeadTracking
import RenderCore

/// A head path for the latency rig. Every path starts with `lead` seconds still (the rig's
/// calibration of the tracker's constant bias, and the still jitter) and ends still.
public enum LatencyMotion: Sendable {
    /// ±8 cm sideways at 0.5 Hz (peak 0.25 m/s), four whole cycles, eased in over the half
    /// cycle before them and out over the half cycle after (the amplitude rises and falls by a
    /// cosine): a head starts and stops swaying with a finite acceleration, where a sine begun
    /// at its centre would jump from rest to its full speed at once (see `swayOffset`).
    case sway
    /// A smooth 10 cm move over 0.3 s (cosine ease), then 1.5 s still; four times, alternating.
    case step
    /// Nodding ±20° at 0.5 Hz, four cycles.
    case nod
    /// The positions of a real head log (metres, its first pose at the rest point), 10 s of it
    /// (`walk(busiestOf:)` picks and scales them).
    case walk(PoseLog)

    /// The walk over the 10 s of `log` where the head travels farthest (a log often starts still),
    /// scaled down to stay within ±10 cm of its start.
    public static func walk(busiestOf log: PoseLog) -> LatencyMotion {
        let s = log.samples
        guard s.count > 2 else { return .walk(log) }
        var best = (start: 0, travel: -1.0)
        var j = 0, travel = 0.0
        var step = [Double](repeating: 0, count: s.count)
        for i in 1..<s.count { let d = s[i].position - s[i - 1].position; step[i] = (d * d).sum().squareRoot() }
        for i in 0..<s.count {
            while j + 1 < s.count && s[j + 1].timestamp - s[i].timestamp <= 10 { j += 1; travel += step[j] }
            if travel > best.travel { best = (i, travel) }
            if i + 1 <= j { travel -= step[i + 1] } else { j = i + 1 }
        }
        var trimmed = log
        trimmed.samples = Array(s[best.start...].prefix { $0.timestamp - s[best.start].timestamp <= 10.5 })
        // Scaled about its first pose to stay within ±10 cm (the camera keeps the face in view),
        // the same for every axis so the path keeps its shape and timing.
        let first = trimmed.samples[0].position
        var reach = 0.0
        for sample in trimmed.samples {
            let d: SIMD3<Double> = sample.position - first
            reach = max(reach, abs(d.x), abs(d.y), abs(d.z))
        }
        let scale = reach > 0.1 ? 0.1 / reach : 1
        for i in trimmed.samples.indices { trimmed.samples[i].position = first + (trimmed.samples[i].position - first) * scale }
        return .walk(trimmed)
    }

    /// The still start (s).
    public static let lead = 3.0
    /// The eye midpoint at rest (metres, screen space): centred, at the rig's eye height, 0.6 m out.
    public static let rest = SIMD3<Double>(0, HeadMotion.eyeHeight, 0.6)

    /// The path's name (`sway`, `step`, `nod`, `walk`).
    public var name: String {
        switch self {
        case .sway: return "sway"
        case .step: return "step"
        case .nod: return "nod"
        case .walk: return "walk"
        }
    }

    /// Seconds from start to end.
    public var duration: Double {
        switch self {
        case .sway: return Self.lead + Self.swaySpan + 1
        case .nod: return Self.lead + 8 + 1
        case .step: return Self.lead + 4 * Self.stepPeriod
        case .walk(let log): return Self.lead + min(10, Self.walkSpan(log)) + 1
        }
    }

    /// One step's move (s) and the stillness after it.
    static let stepMove = 0.3, stepHold = 1.5
    static var stepPeriod: Double { stepMove + stepHold }

    /// Where the head is at `t` seconds (screen space): the translating paths move its origin,
    /// the nod turns it about its origin (the eyes move with the turn: that is the motion).
    public func placement(at t: Double) -> HeadPlacement {
        HeadPlacement(position: Self.rest + offset(t - Self.lead) - Self.facingEyes, pitch: pitch(t - Self.lead))
    }

    /// The true eye midpoint at `t` (metres, screen space). Paths that only translate the head
    /// move the eyes by the same offset (no head rotation to evaluate).
    public func eye(at t: Double) -> SIMD3<Double> {
        if case .nod = self { return placement(at: t).eyeMidpoint }
        return Self.rest + offset(t - Self.lead)
    }

    /// The eye midpoint of a head at the origin facing the screen.
    private static let facingEyes = HeadPlacement(position: .zero).eyeMidpoint

    /// How far a translating path has moved the head `u` seconds after the still start (metres).
    private func offset(_ u: Double) -> SIMD3<Double> {
        switch self {
        case .sway: return SIMD3(Self.swayOffset(u), 0, 0)
        case .step: return SIMD3(stepOffset(u), 0, 0)
        case .walk(let log): return Self.walkOffset(log, at: min(max(u, 0), min(10, Self.walkSpan(log))))
        case .nod: return .zero
        }
    }

    /// The nod's pitch `u` seconds after the still start (radians; 0 for the other paths).
    private func pitch(_ u: Double) -> Double {
        guard case .nod = self, u > 0 && u < 8 else { return 0 }
        return 20 * Double.pi / 180 * sin(2 * Double.pi * 0.5 * u)
    }

    /// Whether the head moves at `t` (faster than 1 cm/s).
    public func isMoving(at t: Double) -> Bool {
        let h = 0.002
        let v = (eye(at: t + h) - eye(at: t - h)) / (2 * h)
        return (v * v).sum().squareRoot() > 0.01
    }

    /// When each move ends and the direction it went (unit), for the overshoot after a stop.
    public var stops: [(time: Double, direction: SIMD3<Double>)] {
        guard case .step = self else { return [] }
        return (0..<4).map { k in
            (Self.lead + Double(k) * Self.stepPeriod + Self.stepMove, SIMD3(k % 2 == 0 ? 1 : -1, 0, 0))
        }
    }

    /// The sway's length (s): four whole cycles at 0.5 Hz and a half cycle of easing either side.
    static let swaySpan = 10.0

    /// The sway's sideways offset `u` seconds after the still start (metres):
    /// 0.08·e(u)·sin(πu), e rising from 0 to 1 over the first second as (1 − cos πs)/2 and
    /// falling over the last. Its speed and acceleration are continuous from rest to rest
    /// (e and its slope are 0 where it starts), and between the eases it is the plain ±8 cm,
    /// 0.5 Hz sine.
    static func swayOffset(_ u: Double) -> Double {
        guard u > 0 && u < swaySpan else { return 0 }
        let s = min(u, swaySpan - u, 1)
        let envelope = (1 - cos(Double.pi * s)) / 2
        return 0.08 * envelope * sin(Double.pi * u)
    }

    /// The step path's sideways offset `u` seconds after the still start (metres).
    private func stepOffset(_ u: Double) -> Double {
        guard u > 0 else { return 0 }
        let k = min(3, Int(u / Self.stepPeriod))
        let local = u - Double(k) * Self.stepPeriod
        let from = k % 2 == 0 ? 0.0 : 0.1, to = k % 2 == 0 ? 0.1 : 0.0
        let s = min(1, local / Self.stepMove)
        return from + (to - from) * (1 - cos(Double.pi * s)) / 2
    }

    /// Seconds the log spans.
    static func walkSpan(_ log: PoseLog) -> Double {
        guard let a = log.samples.first, let b = log.samples.last else { return 0 }
        return b.timestamp - a.timestamp
    }

    /// The log's position `u` seconds in, relative to its first position (linear between samples).
    static func walkOffset(_ log: PoseLog, at u: Double) -> SIMD3<Double> {
        let s = log.samples
        guard let first = s.first else { return .zero }
        let t = first.timestamp + u
        var lo = 0, hi = s.count - 1
        while lo < hi - 1 { let m = (lo + hi) / 2; if s[m].timestamp <= t { lo = m } else { hi = m } }
        let a = s[lo], b = s[hi]
        let w = b.timestamp > a.timestamp ? min(1, max(0, (t - a.timestamp) / (b.timestamp - a.timestamp))) : 0
        let p = a.position + (b.position - a.position) * w - first.position
        return SIMD3(p.x, p.y, p.z)
    }
}
