// ReplayExporter — renders a head-track replay frame by frame (PNG sequence or video frames).
import Foundation
import HeadTracking
import RenderCore

/// Renders `scene` as seen along a head-track log, one frame per 1/fps seconds of the log.
/// Deterministic: frame i uses the replay sampled at i / fps (no wall clock; a fresh tracker
/// per exporter, frames in order), and the renderers' output does not depend on the thread
/// count, so two exports of the same log give identical frames.
///
/// ```swift
/// let exporter = try ReplayExporter(scene: scene, track: "head.csv", fps: 30, width: 1280, height: 720)
/// for i in 0..<exporter.frameCount { let fb = exporter.renderNextFrame(); /* save fb */ }
/// ```
public final class ReplayExporter {
    /// The scene drawn.
    public let scene: Scene
    /// Output frame rate (Hz); frame i shows the log at i / fps seconds.
    public let fps: Double
    /// Frames in the export: ⌊duration · fps⌋ + 1 (at least 1).
    public let frameCount: Int
    /// The framebuffer each frame is rendered into (reused).
    public let framebuffer: Framebuffer
    /// The physical screen used for the off-axis frustum (from the tracking settings).
    public let screen: ScreenGeometry
    private let session: HeadTrackingSession
    private let context: RenderContext
    /// The next frame `renderNextFrame` draws.
    public private(set) var nextFrame = 0

    /// Prepares an export of the log at `track`. `options` carries head-tracking flags
    /// (filter, movement scale…); the source is forced to `replay:track` without looping.
    /// `frameLimit` caps the number of frames (nil: the whole log).
    public init(scene: Scene, track: String, fps: Double = 30, width: Int, height: Int,
                threads: Int = CoreCount.available, screen: ScreenGeometry? = nil,
                options: HeadTrackingOptions = HeadTrackingOptions(), frameLimit: Int? = nil) throws {
        guard fps.isFinite, fps > 0, fps <= 1000 else {
            throw ViewerError.badOption(name: "--fps", value: "\(fps)", reason: "must be 0…1000 frames per second")
        }
        var o = options
        o.head = .replay(path: track); o.eye = nil; o.loop = false; o.recordPath = nil
        session = try HeadTrackingSession(options: o, screenFlag: screen)
        let duration = (session.source as? ReplaySource)?.duration ?? 0
        var n = Int((duration * fps).rounded(.down)) + 1
        if let frameLimit { n = max(1, min(n, frameLimit)) }
        self.scene = scene; self.fps = fps; self.frameCount = n
        self.screen = session.screen
        framebuffer = Framebuffer(width: width, height: height)
        context = RenderContext(threads: threads)
    }

    /// The eye (metres, screen space) of frame `i` — advances the tracker, so call in order.
    func eye(frame i: Int) -> Vec3 {
        session.pose(atFrameTime: Double(i) / fps).eye
    }

    /// Renders the next frame into `framebuffer` and returns it.
    @discardableResult
    public func renderNextFrame() -> Framebuffer {
        let cam = OffAxisFrustum.camera(eye: eye(frame: nextFrame), screen: screen,
                                        width: framebuffer.width, height: framebuffer.height)
        _ = scene.render(camera: cam, into: framebuffer, context: context)
        nextFrame += 1
        return framebuffer
    }

    /// Renders every remaining frame, handing each to `sink` (frame index, framebuffer) and
    /// reporting `progress(done, total)` after each.
    public func export(to sink: ReplayFrameSink, progress: ((Int, Int) -> Void)? = nil) throws {
        while nextFrame < frameCount {
            let i = nextFrame
            try sink.write(frame: i, framebuffer: renderNextFrame())
            progress?(i + 1, frameCount)
        }
        try sink.finish()
    }
}
