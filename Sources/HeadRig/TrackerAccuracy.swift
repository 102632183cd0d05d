// TrackerAccuracy — runs the webcam pipeline over the rendered head path and scores its raw eye
// points against the truth, after one distance calibration on the still frames.
import Foundation
import Media
import Procedural
import RenderCore
import WebcamTracking

/// The scores of one run.
public struct TrackerAccuracy: Sendable {
    /// Per part of the path (and `nil` key: all of it).
    public struct Score: Sendable {
        public var frames = 0, tracked = 0
        /// |z − z_true| / z_true of the eye midpoint, p95 and worst (fractions).
        public var distanceP95 = 0.0, distanceMax = 0.0, distanceMedian = 0.0
        /// Eye midpoint x/y error (metres), p95; each eye's x/y/z error (metres), p95.
        public var eyeXYP95 = 0.0, eachEyeP95 = 0.0
        /// Head angle error (radians), p95 of the largest of yaw/pitch/roll errors.
        public var angleP95: Double?
    }
    public var backend: String
    public var scores: [(segment: String, score: Score)]
    /// The calibration factor fitted on the still frames (true distance / raw distance).
    public var calibration: Double
    /// Standard deviation of the raw z over the settled still frames (metres).
    public var stillJitter: Double
    /// Median and p90 processing time per frame (ms).
    public var msMedian: Double, msP90: Double
    /// Per frame (CSV with a header): segment, true and calibrated raw eye midpoint (metres),
    /// true and measured yaw, pitch, roll (degrees), processing time (ms).
    public var perFrame: String

    /// A Markdown table of the scores.
    public var table: String {
        var t = "| part | frames | tracked | distance error median / p95 / worst | eye x/y p95 | each eye p95 | angle p95 |\n|---|---|---|---|---|---|---|\n"
        for (name, s) in scores {
            t += String(format: "| %@ | %d | %d | %.1f %% / %.1f %% / %.1f %% | %.1f mm | %.1f mm | %@ |\n", name, s.frames, s.tracked,
                        100 * s.distanceMedian, 100 * s.distanceP95, 100 * s.distanceMax, 1000 * s.eyeXYP95, 1000 * s.eachEyeP95,
                        s.angleP95.map { String(format: "%.1f°", $0 * 180 / .pi) } ?? "–")
        }
        t += String(format: "\nback end %@; calibration ×%.4f; still raw jitter %.2f mm; %.2f ms per frame median (p90 %.2f)\n",
                    backend, calibration, stillJitter * 1000, msMedian, msP90)
        return t
    }

    /// Renders the path through `head` and `camera` with camera noise `noise` (levels), runs
    /// `pipeline` on every frame in order, and scores it. `frameSink` sees each frame (to save it).
    public static func measure(head: SyntheticHead, camera: RigCamera, pipeline: EyePipeline, path: [HeadMotionFrame],
                               noise: Double = 3, seed: UInt64 = 1, frameSink: ((RGBFrame, HeadMotionFrame) throws -> Void)? = nil)
        throws -> TrackerAccuracy {
        var random = SeededRandom(seed: seed)
        var observations: [EyeObservation] = []
        for (i, f) in path.enumerated() {
            let frame = head.render(f.placement, camera: camera, noise: noise, random: &random, timestamp: f.time, index: i)
            try frameSink?(frame, f)
            observations.append(try pipeline.process(frame))
        }
        return score(observations, path: path, camera: camera, backend: pipeline.backend.rawValue)
    }

    /// Still frames left out of the calibration and the jitter: a tracker that has just found a
    /// face settles (measured: the landmarker's distance moves ~8 mm over its first 6 frames).
    public static let settleFrames = 15

    /// Scores observations against the path they were made from.
    public static func score(_ obs: [EyeObservation], path: [HeadMotionFrame], camera: RigCamera, backend: String) -> TrackerAccuracy {
        let cam = camera.position
        func depth(_ p: SIMD3<Double>) -> Double { p.z - cam.z }
        // One distance calibration on the still frames: the median ratio of true to raw depth.
        let settled = Array(zip(obs, path).filter { $0.1.segment == .still }.dropFirst(settleFrames))
        let stillRatios = settled.compactMap { o, f -> Double? in
            guard let e = o.eyes else { return nil }
            return depth(f.placement.eyeMidpoint) / depth(e.centre)
        }.sorted()
        let c = stillRatios.isEmpty ? 1 : stillRatios[stillRatios.count / 2]
        func calibrated(_ p: SIMD3<Double>) -> SIMD3<Double> { cam + (p - cam) * c }
        let stillZ = settled.compactMap { o, _ in o.eyes.map { calibrated($0.centre).z } }
        var scores: [(String, Score)] = []
        for segment in HeadMotion.Segment.allCases.map(\.rawValue) + ["all"] {
            var s = Score()
            var dist: [Double] = [], xy: [Double] = [], each: [Double] = [], angle: [Double] = []
            for (o, f) in zip(obs, path) where segment == "all" || f.segment.rawValue == segment {
                s.frames += 1
                guard let e = o.eyes else { continue }
                s.tracked += 1
                let truth = f.placement.eyeMidpoint, est = calibrated(e.centre)
                dist.append(abs(depth(est) - depth(truth)) / depth(truth))
                xy.append(((est.x - truth.x) * (est.x - truth.x) + (est.y - truth.y) * (est.y - truth.y)).squareRoot())
                for (a, b) in [(calibrated(e.right), f.placement.rightEye), (calibrated(e.left), f.placement.leftEye)] {
                    let d = a - b
                    each.append((d * d).sum().squareRoot())
                }
                if let g = o.angles {
                    let p = f.placement
                    angle.append(max(abs(g.x - p.yaw), abs(g.y - p.pitch), abs(g.z - p.roll)))
                }
            }
            s.distanceMedian = quantile(dist, 0.5); s.distanceP95 = quantile(dist, 0.95); s.distanceMax = dist.max() ?? 0
            s.eyeXYP95 = quantile(xy, 0.95); s.eachEyeP95 = quantile(each, 0.95)
            s.angleP95 = angle.isEmpty ? nil : quantile(angle, 0.95)
            scores.append((segment, s))
        }
        let ms = obs.map { $0.processingTime * 1000 }
        var csv = "frame,segment,true_x,true_y,true_z,x,y,z,true_yaw,true_pitch,true_roll,yaw,pitch,roll,ms\n"
        let deg = 180 / Double.pi
        for (i, (o, f)) in zip(obs, path).enumerated() {
            let t = f.placement.eyeMidpoint, e = o.eyes.map { calibrated($0.centre) }, a = o.angles
            func v(_ x: Double?) -> String { x.map { String(format: "%.5f", $0) } ?? "" }
            csv += "\(i),\(f.segment.rawValue),\(v(t.x)),\(v(t.y)),\(v(t.z)),\(v(e?.x)),\(v(e?.y)),\(v(e?.z)),"
                + "\(v(f.placement.yaw * deg)),\(v(f.placement.pitch * deg)),\(v(f.placement.roll * deg)),"
                + "\(v(a.map { $0.x * deg })),\(v(a.map { $0.y * deg })),\(v(a.map { $0.z * deg })),\(v(o.processingTime * 1000))\n"
        }
        return TrackerAccuracy(backend: backend, scores: scores, calibration: c, stillJitter: standardDeviation(stillZ),
                               msMedian: quantile(ms, 0.5), msP90: quantile(ms, 0.9), perFrame: csv)
    }

    /// The score of one part (`still`, `turn`, `nod`, `move` or `all`).
    public func score(_ segment: String) -> Score? { scores.first { $0.segment == segment }?.score }

    static func quantile(_ v: [Double], _ q: Double) -> Double {
        guard !v.isEmpty else { return 0 }
        let s = v.sorted()
        return s[min(s.count - 1, Int((Double(s.count - 1) * q).rounded()))]
    }

    static func standardDeviation(_ v: [Double]) -> Double {
        guard v.count > 1 else { return 0 }
        let m = v.reduce(0, +) / Double(v.count)
        return (v.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(v.count - 1)).squareRoot()
    }
}
