// SceneHUD — the scene screen's heads-up text: frame time, head source and pose, latency, screen
// and scene, tracker and scene status, stage times, the current message, stereo.
import Foundation
import HeadTracking
import RenderCore
import Viewer

/// One frame's HUD, composed from the scene screen's state and drawn at the top left (in both
/// halves for side-by-side stereo, so it sits at zero parallax).
struct SceneHUD {
    let screen: SceneScreen
    let stats: FrameStats
    let pose: HeadPose
    let latency: LatencyMeter.Summary?

    /// The lines, each at most `maxWidth` pixels wide as `width` measures them where a long name
    /// (the head source's path) can be shortened: its middle gives way, the figures stay whole.
    func lines(maxWidth: Int, width: (String) -> Int) -> [String] {
        let e = pose.eye
        let s = screen.setup.screen.value
        let fb = screen.framebuffer
        let scene = screen.sceneFigures
        let ms = screen.medianFrameMs
        var lines = [
            String(format: "%.1f ms  %.0f fps  %d×%d  %d threads", ms, 1000 / ms, fb.width, fb.height, screen.driver.context.threads)
                + (screen.isAsynchronous ? String(format: "  shown at %.0f fps, each warped to its own eye", screen.timing.presentRate) : "")
                + (screen.latchSummary.map { "  " + $0 } ?? ""),
            Self.fitting(screen.tracking.source.name, maxWidth: maxWidth, width: width) { name in
                String(format: "head %@ %@  eye %+.3f %+.3f %+.3f m", name, pose.state.rawValue, e.x, e.y, e.z)
                    + (latency.flatMap { $0.frames > 0 ? $0 : nil }.map {
                        String(format: "  latency %.1f ms to frame, %.1f ms to screen", $0.completeMedianMs, $0.presentedMedianMs)
                    } ?? "")
            },
            String(format: "screen %.3f×%.3f m  %@  %d %@", s.width, s.height, scene.name, scene.primitiveCount, scene.primitiveKind.rawValue),
        ]
        if let r = pose.rotation {
            lines.insert(String(format: "head yaw %+.0f°  pitch %+.0f°  roll %+.0f°", r.x * 180 / .pi, r.y * 180 / .pi, r.z * 180 / .pi), at: 2)
        }
        // Camera sources only: their samples carry an exposure time; the mouse's and a replay's do not.
        if screen.tracking.source is CameraTrackingSource, let m = screen.timing.motionToPhoton {
            lines.append(String(format: "motion to photon %.0f ms: exposure → pose %.0f ms → screen %.0f ms; predicted %.0f ms ahead%@",
                                m.exposureToPresented, m.exposureToPublished, m.exposureToPresented - m.exposureToPublished, m.predicted,
                                screen.tracking.tracker.settings.predictionHorizon == nil ? " (prediction off)" : ""))
        }
        if let status = screen.tracking.source.statusSummary { lines.append(status) }
        if let status = scene.statusLine { lines.append(status) }
        if let governor = screen.governorSummary { lines.append(governor) }
        if !stats.stages.isEmpty {
            lines.append(stats.stages.map { String(format: "%@ %.1f", $0.name, $0.ms) }.joined(separator: "  ") + " ms")
        } else if stats.raster.trianglesIn > 0 {
            lines.append(String(format: "setup %.1f  raster %.1f ms", stats.raster.setupMs, stats.raster.rasterMs))
        }
        lines.append("? or F1: keys and mouse   h: hide HUD   q: quit")
        if let m = screen.currentMessage { lines.append(m) }
        if let stereo = screen.stereo { lines.append("stereo \(stereo.mode.description)  IPD \(Int((stereo.ipd * 1000).rounded())) mm") }
        return lines
    }

    func draw(into fb: Framebuffer, text: WindowText) {
        var offsets = [0]
        var maxWidth = fb.width - 12
        if case .sideBySide = screen.stereo?.mode {
            offsets = [0, fb.width / 2]
            maxWidth = fb.width / 2 - 12
        }
        for (i, line) in lines(maxWidth: maxWidth, width: { text.width($0) }).enumerated() {
            let y = 6 + i * text.lineHeight
            for x0 in offsets { text.draw(line, x: x0 + 6, y: y, into: fb, maxWidth: maxWidth) }
        }
    }

    /// `compose(name)`, with `name` shortened in the middle ("/home/…/capture.ply") to the most
    /// characters that let the line fit `maxWidth` pixels (at least 3 each side of the ellipsis).
    static func fitting(_ name: String, maxWidth: Int, width: (String) -> Int, compose: (String) -> String) -> String {
        let whole = compose(name)
        guard width(whole) > maxWidth, name.count > 8 else { return whole }
        let chars = Array(name)
        func shortened(_ keep: Int) -> String {
            let head = (keep + 1) / 2, tail = keep / 2
            return String(chars[..<head]) + "…" + String(chars[(chars.count - tail)...])
        }
        // The most characters kept that still fit (bisection: width grows with what is kept).
        var lo = 6, hi = chars.count - 1
        guard width(compose(shortened(lo))) <= maxWidth else { return compose(shortened(lo)) }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if width(compose(shortened(mid))) <= maxWidth { lo = mid } else { hi = mid - 1 }
        }
        return compose(shortened(lo))
    }
}
