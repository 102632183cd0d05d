// LatencyAnalysis — presented frames scored against the true eye: the effective lag, the error
// during motion, the overshoot after a stop, the still jitter, and where the time went.
import Foundation

/// One frame as the rig saw it presented. Times are seconds since the motion started.
public struct PresentedFrame: Sendable, Equatable {
    /// When the frame began (its pose read) and when it was presented (`SDL_RenderPresent`
    /// returned; headless: the frame was complete).
    public var frameStart: Double, present: Double
    /// The eye the frame was drawn for (metres, screen space).
    public var eye: SIMD3<Double>
    /// The exposure time of the newest camera frame behind that eye, and when its pose was published.
    public var exposure: Double?, published: Double?

    public init(frameStart: Double, present: Double, eye: SIMD3<Double>, exposure: Double?, published: Double?) {
        self.frameStart = frameStart; self.present = present; self.eye = eye; self.exposure = exposure; self.published = published
    }
}

/// The rig's figures for one run.
public struct LatencyFigures: Sendable {
    /// The shift (ms) of the true path that best explains the eyes used, over the moving frames:
    /// positive trails the head, negative leads it.
    public var lagMs: Double
    /// RMS and 95th percentile of the distance (mm) between the eye used and the true eye at the
    /// present time, over the moving frames (after removing the tracker's constant bias).
    public var rmsMm: Double, p95Mm: Double
    /// The largest overshoot (mm) past where the head stopped, along the move (step motion only).
    public var overshootMm: Double?
    /// RMS (mm) of the eye used about its mean while the head is still.
    public var jitterMm: Double
    /// Medians (ms): exposure → pose published → frame start → presented, and exposure → presented.
    public var exposureToPublishedMs: Double, publishedToStartMs: Double, startToPresentMs: Double, motionToPhotonMs: Double
    /// Frames presented and their rate (per second).
    public var frames: Int, fps: Double
    /// The tracker's constant offset removed before scoring (mm, x y z): a calibration.
    public var bias: SIMD3<Double>
}

/// Scores presented frames against a `LatencyMotion`.
public enum LatencyAnalysis {
    /// The still window scored for bias and jitter: from 1 s (the tracker settled) to the motion's start.
    static let stillWindow = 1.0..<(LatencyMotion.lead - 0.1)

    /// The figures of `frames` (in present order) for `motion`.
    public static func analyse(_ frames: [PresentedFrame], motion: LatencyMotion) -> LatencyFigures {
        let still = frames.filter { stillWindow.contains($0.present) }
        var bias = SIMD3<Double>.zero
        if !still.isEmpty {
            for f in still { bias += f.eye - motion.eye(at: f.present) }
            bias /= Double(still.count)
        }
        var jitter = 0.0
        if !still.isEmpty {
            let mean = still.reduce(SIMD3<Double>.zero) { $0 + $1.eye } / Double(still.count)
            jitter = (still.map { f -> Double in let d = f.eye - mean; return (d * d).sum() }.reduce(0, +) / Double(still.count)).squareRoot()
        }
        let moving = frames.filter { $0.present >= LatencyMotion.lead && motion.isMoving(at: $0.present) }
        func distance(_ f: PresentedFrame, shift: Double) -> Double {
            let d = f.eye - bias - motion.eye(at: f.present - shift)
            return (d * d).sum().squareRoot()
        }
        let errors = moving.map { distance($0, shift: 0) }.sorted()
        let rms = errors.isEmpty ? 0 : (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
        let p95 = errors.isEmpty ? 0 : errors[min(errors.count - 1, Int((0.95 * Double(errors.count)).rounded(.down)))]
        // The lag: the shift of the true path (−150…+300 ms) of least squared error, found on a
        // 5 ms grid and then to 0.5 ms around the grid's best.
        var best = (shift: 0.0, error: Double.infinity)
        func consider(_ s: Double) {
            let e = moving.reduce(0.0) { let d = distance($1, shift: s); return $0 + d * d }
            if e < best.error { best = (s, e) }
        }
        if !moving.isEmpty {
            for k in -30...60 { consider(Double(k) * 0.005) }
            let coarse = best.shift
            for k in -10...10 { consider(coarse + Double(k) * 0.0005) }
        }
        var overshoot: Double?
        for stop in motion.stops {
            let rest = motion.eye(at: stop.time)
            let after = frames.filter { $0.present >= stop.time && $0.present < stop.time + LatencyMotion.stepHold }
            let past = after.map { (($0.eye - bias - rest) * stop.direction).sum() }.max() ?? 0
            overshoot = max(overshoot ?? 0, max(0, past))
        }
        func median(_ values: [Double]) -> Double { values.isEmpty ? .nan : values.sorted()[values.count / 2] }
        let span = (frames.last?.present ?? 0) - (frames.first?.present ?? 0)
        return LatencyFigures(
            lagMs: best.shift * 1000, rmsMm: rms * 1000, p95Mm: p95 * 1000, overshootMm: overshoot.map { $0 * 1000 },
            jitterMm: jitter * 1000,
            exposureToPublishedMs: median(frames.compactMap { f in f.published.flatMap { p in f.exposure.map { (p - $0) * 1000 } } }),
            publishedToStartMs: median(frames.compactMap { f in f.published.map { (f.frameStart - $0) * 1000 } }),
            startToPresentMs: median(frames.map { ($0.present - $0.frameStart) * 1000 }),
            motionToPhotonMs: median(frames.compactMap { f in f.exposure.map { (f.present - $0) * 1000 } }),
            frames: frames.count, fps: span > 0 ? Double(frames.count - 1) / span : 0, bias: bias)
    }
}
