// LatencyReport — the rig's figures as the lines `splatframe track latency` prints.
import Foundation

/// Text for one run.
public enum LatencyReport {
    /// Lines: what ran, then the figures (ms and mm), one per line.
    public static func text(_ f: LatencyFigures, configuration c: LatencyRigConfiguration, scene: String, filter: String,
                            window: Bool) -> String {
        func n(_ v: Double, _ digits: Int = 1) -> String { v.isFinite ? String(format: "%.\(digits)f", v) : "–" }
        var lines = [
            "motion \(c.motion.name), camera \(n(c.cameraFPS, 0)) fps (delivered \(n(c.effectiveCameraDelay * 1000)) ms after exposure), "
                + "timestamps \(c.stamping.rawValue), filter \(filter), prediction \(c.tracker.predictionHorizon == nil ? "off" : "on"), "
                + "reprojection \(c.reprojection.rawValue), "
                + "\(scene) \(window ? "in a window" : "headless")",
            "frames presented     \(f.frames) (\(n(f.fps, 0)) fps)",
            "effective lag        \(n(f.lagMs)) ms",
            "error while moving   RMS \(n(f.rmsMm, 2)) mm, p95 \(n(f.p95Mm, 2)) mm",
        ]
        if let o = f.overshootMm { lines.append("overshoot after stop \(n(o, 2)) mm") }
        lines += [
            "still jitter         \(n(f.jitterMm, 2)) mm RMS",
            "time split (median)  exposure → published \(n(f.exposureToPublishedMs)) ms → frame start \(n(f.publishedToStartMs)) ms "
                + "→ presented \(n(f.startToPresentMs)) ms; exposure → presented \(n(f.motionToPhotonMs)) ms",
            String(format: "tracker bias removed  %+.1f %+.1f %+.1f mm", f.bias.x * 1000, f.bias.y * 1000, f.bias.z * 1000),
        ]
        return lines.joined(separator: "\n")
    }
}
