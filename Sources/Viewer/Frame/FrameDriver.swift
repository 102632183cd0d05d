// FrameDriver — the one per-frame step: view → camera → scene → framebuffer, with timings.
import HeadTracking
import RenderCore

/// One frame as the driver drew it.
public struct FrameRecord: Sendable {
    /// What it was seen from.
    public var view: FrameView
    /// The camera used.
    public var camera: Camera
    /// Stage times of `Scene.advance` and `Scene.render`.
    public var stats: FrameStats
    /// `MonotonicClock` seconds: the view was obtained, rendering started, the framebuffer was complete.
    public var viewTime: Double, renderStart: Double, complete: Double

    /// Render time (scene advanced, cleared, drawn: to complete framebuffer), milliseconds.
    public var renderMs: Double { (complete - renderStart) * 1000 }
    /// View obtained → framebuffer complete, milliseconds.
    public var viewToCompleteMs: Double { (complete - viewTime) * 1000 }
}

/// Turns views into frames: the same code path for the window, `render`, `bench` and `export`.
/// Needs no display. Allocation-free per frame once the framebuffer has its size (the
/// renderers' own buffers grow during warm-up).
///
/// ```swift
/// let driver = FrameDriver(scene: scene, setup: setup, context: RenderContext(), width: 1280, height: 720)
/// let record = driver.renderFrame(from: FixedEyeSource(eye: Vec3(0, 0, 0.6)), index: 0)
/// try ImageFile.savePNG(driver.framebuffer.image(), to: "frame.png")
/// ```
public final class FrameDriver {
    /// The scene drawn (the window swaps it when a file is dropped).
    public var scene: Scene
    /// The renderers.
    public let context: RenderContext
    /// The target every frame is drawn into (reused; resized by `resize` or a camera view).
    public let framebuffer: Framebuffer
    /// The viewing set-up (screen, viewport, neutral eye); the window updates `viewport` as it moves.
    public var setup: ViewingSetup

    public init(scene: Scene, setup: ViewingSetup, context: RenderContext, width: Int, height: Int) {
        self.scene = scene; self.setup = setup; self.context = context
        framebuffer = Framebuffer(width: max(1, width), height: max(1, height))
    }

    /// Sets the framebuffer size (pixels); a no-op when unchanged.
    public func resize(width: Int, height: Int) { framebuffer.resize(width: max(1, width), height: max(1, height)) }

    /// The camera a view implies at the framebuffer's size (a camera view brings its own size).
    public func camera(for view: FrameView) -> Camera {
        switch view {
        case .pose(let p): return setup.camera(eye: p.eye, width: framebuffer.width, height: framebuffer.height)
        case .camera(let c): return c
        }
    }

    /// Draws `view`: a pose through the set-up's off-axis frustum at the framebuffer's size, or
    /// a fixed camera at its own size and background.
    @discardableResult
    public func render(_ view: FrameView) -> FrameStats {
        let camera = camera(for: view)
        if case .camera(let c) = view {
            resize(width: c.width, height: c.height)
            scene.background = c.background
        }
        return scene.render(camera: camera, into: framebuffer, context: context)
    }

    /// Asks `source` for frame `index`'s view, advances the scene to the view's time
    /// (`EyeSource.sceneTime`: video walls upload their due frame), then draws it, recording
    /// when each happened.
    @discardableResult
    public func renderFrame(from source: EyeSource, index: Int) -> FrameRecord {
        let tView = MonotonicClock.now()
        let view = source.view(frame: index)
        let cam = camera(for: view)
        let t0 = MonotonicClock.now()
        scene.advance(to: source.sceneTime(frame: index, view: view))
        let tAdvanced = MonotonicClock.now()
        var stats = render(view)
        let t1 = MonotonicClock.now()
        stats.advanceMs = (tAdvanced - t0) * 1000
        return FrameRecord(view: view, camera: cam, stats: stats, viewTime: tView, renderStart: t0, complete: t1)
    }
}
