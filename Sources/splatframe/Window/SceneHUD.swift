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

    var lines: [String] {
        let e = pose.eye
        let s = screen.driver.setup.screen.value
        let fb = screen.framebuffer
        let scene = screen.scene
        let ms = screen.medianFrameMs
        var lines = [
            String(format: "%.1f ms  %.0f fps  %d×%d  %d threads", ms, 1000 / ms, fb.width, fb.height, screen.driver.context.threads),
            String(format: "head %@ %@  eye %+.3f %+.3f %+.3f m", screen.tracking.source.name, pose.state.rawValue, e.x, e.y, e.z)
                + (latency.flatMap { $0.frames > 0 ? $0 : nil }.map {
                    String(format: "  latency %.1f ms to frame, %.1f ms to screen", $0.completeMedianMs, $0.presentedMedianMs)
                } ?? ""),
            String(format: "screen %.3f×%.3f m  %@  %d %@", s.width, s.height, scene.name, scene.primitiveCount, scene.primitiveKind.rawValue),
        ]
        if let r = pose.rotation {
            lines.insert(String(format: "head yaw %+.0f°  pitch %+.0f°  roll %+.0f°", r.x * 180 / .pi, r.y * 180 / .pi, r.z * 180 / .pi), at: 2)
        }
        if let status = screen.tracking.source.statusSummary { lines.append(status) }
        if let status = scene.statusLine { lines.append(status) }
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
        for (i, line) in lines.enumerated() {
            let y = 6 + i * text.lineHeight
            for x0 in offsets { text.draw(line, x: x0 + 6, y: y, into: fb, maxWidth: maxWidth) }
        }
    }
}
