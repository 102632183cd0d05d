// ReplayExporter — renders a head-track replay frame by frame (PNG sequence or video frames).
import Viewer
import Foundation
import HeadTracking
import RenderCore
import Settings
import Workers

/// Renders `scene` as seen along a head-track log, one frame per 1/fps seconds of the log,
/// through `FrameDriver` and a `ReplayEyeSource`. Deterministic: frame i uses the replay sampled
/// at i / fps (no wall clock; a fresh tracker per exporter, frames in order), and the
/// renderers' output does not depend on the thread count, so two exports of the same log give
/// identical frames. Hermetic: reads no config file but the one passed in (`--config`).
///
/// ```swift
/// let exporter = try ReplayExporter(scene: scene, track: "head.csv", fps: 30, width: 1280, height: 720)
/// for _ in 0..<exporter.frameCount { let fb = exporter.renderNextFrame(); /* save fb */ }
/// ```
public final class ReplayExporter {
    /// The scene drawn.
    public var scene: Scene { driver.scene }
    /// Output frame rate (Hz); frame i shows the log at i / fps seconds.
    public let fps: Double
    /// Frames in the export: ⌊duration · fps⌋ + 1 (at least 1).
    public let frameCount: Int
    /// The framebuffer each frame is rendered into (reused).
    public var framebuffer: Framebuffer { driver.framebuffer }
    /// The viewing set-up used for the off-axis frustum.
    public var setup: ViewingSetup { driver.setup }
    private let driver: FrameDriver
    private let source: ReplayEyeSource
    /// The next frame `renderNextFrame` draws.
    public private(set) var nextFrame = 0

    /// Prepares an export of the log at `track`. `options` carries head-tracking flags
    /// (filter, recentre, axes…); the source is forced to `replay:track` without looping.
    /// `config` is a config file the user named (nil: defaults). `frameLimit` caps the number
    /// of frames (nil: the whole log).
    public init(scene: Scene, track: String, fps: Double = 30, width: Int, height: Int,
                threads: Int = CoreCount.available, setup: ViewingSetup = ViewingSetup(),
                options: HeadTrackingOptions = HeadTrackingOptions(), config: ConfigFile? = nil, configPath: String? = nil,
                frameLimit: Int? = nil) throws {
        guard fps.isFinite, fps > 0, fps <= 1000 else {
            throw ViewerError.badValue(what: "frame rate", value: "\(fps)", reason: "must be more than 0 and at most 1000 frames per second")
        }
        var o = options
        o.head = .replay(path: track); o.eye = nil; o.loop = false; o.recordPath = nil
        let session = try HeadTrackingSession(options: o, config: config, configPath: configPath, geometry: setup.trackingGeometry)
        var n = Int(((session.replayDuration ?? 0) * fps).rounded(.down)) + 1
        if let frameLimit { n = max(1, min(n, frameLimit)) }
        self.fps = fps; self.frameCount = n
        source = ReplayEyeSource(session: session, rate: fps)
        driver = FrameDriver(scene: scene, setup: setup, context: RenderContext(threads: threads, producesDepth: false), width: width, height: height)
    }

    /// Renders the next frame into `framebuffer` and returns it.
    @discardableResult
    public func renderNextFrame() -> Framebuffer {
        driver.renderFrame(from: source, index: nextFrame)
        nextFrame += 1
        return driver.framebuffer
    }

    /// Renders every remaining frame, handing each to `sink` (frame index, framebuffer) and
    /// reporting `progress(done, total)` after each.
    public func export(to sink: ReplayFrameSink, progress: ((Int, Int) -> Void)? = nil) throws {
        while nextFrame < frameCount {
            let i = nextFrame
            let framebuffer = renderNextFrame()
            // An animated capture's frame that cannot be decoded stops the export (one line naming it).
            if let error = (driver.scene as? SplatSequenceScene)?.frameError { throw error }
            try sink.write(frame: i, framebuffer: framebuffer)
            progress?(i + 1, frameCount)
        }
        try sink.finish()
    }
}
