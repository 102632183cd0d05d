// AsyncFrameRenderer — frames drawn on their own thread while the caller presents (`--reproject
// async`): the caller hands it a view, goes on presenting the newest finished frame warped to
// each refresh's own eye (`LateLatch`), and picks the next frame up when it is finished. A heavy
// scene drawn at 20 fps is then shown at the display's rate.
import Foundation
import RenderCore
import Viewer
import Workers

/// Renders `FrameDriver` frames on a background thread, one at a time.
///
///     let renderer = AsyncFrameRenderer(driver: driver)        // the driver is now the renderer's
///     renderer.submit(job)                                      // when `isBusy` is false
///     renderer.takeFinished { record, driver in latch.setSource(driver.framebuffer, …) }
///     renderer.whenIdle { driver in driver.scene = newScene }   // any other use of the driver
///
/// The driver (its scene, framebuffer and set-up) is used by one thread at a time: the render
/// thread while it draws a job, the caller only inside `takeFinished` and `whenIdle`, which wait
/// for a frame in flight to finish. Jobs carry the set-up and size they are drawn at, so the
/// caller never has to wait to move or resize the window.
public final class AsyncFrameRenderer: Sendable {
    /// One frame to draw.
    public struct Job: Sendable {
        /// What it is seen from, and the scene time it shows (`EyeSource.sceneTime`).
        public var view: FrameView
        public var sceneTime: Double
        /// The viewing set-up and framebuffer size (pixels) it is drawn with.
        public var setup: ViewingSetup
        public var width: Int, height: Int
        /// The frame's number (for the record).
        public var index: Int

        public init(view: FrameView, sceneTime: Double, setup: ViewingSetup, width: Int, height: Int, index: Int) {
            self.view = view; self.sceneTime = sceneTime; self.setup = setup; self.width = width; self.height = height
            self.index = index
        }
    }

    private struct Signal {
        var job: Job?
        /// The last finished frame not yet taken.
        var finished: FrameRecord?
        var busy = false
    }

    // Audited: the driver is reached only under this lock — by the render thread while it draws,
    // by the caller in `takeFinished` and `whenIdle` — and the caller keeps no other use of it.
    private let driver: Locked<FrameDriver>
    private let signal = Locked(Signal())
    private let thread = BackgroundThread(name: "splatframe.render")

    /// A renderer drawing with `driver` (from now on reached only through this renderer).
    public init(driver: FrameDriver) {
        self.driver = Locked(unchecked: driver)
        thread.start { [driver = self.driver, signal] in
            guard let job = signal.wait(until: { $0.job != nil }, timeout: 0.1, { s, _ in s.job.take() }) else { return true }
            let record = driver.withLock { d -> FrameRecord in
                d.setup = job.setup
                d.resize(width: job.width, height: job.height)
                return d.renderFrame(from: JobEyes(job: job), index: job.index)
            }
            signal.update { $0.finished = record; $0.busy = false }
            return true
        }
    }

    deinit { thread.stop() }

    /// Whether a frame is being drawn (or queued).
    public var isBusy: Bool { signal.withLock { $0.busy } }

    /// Queues `job`; false (and nothing queued) while a frame is being drawn.
    @discardableResult
    public func submit(_ job: Job) -> Bool {
        signal.update { s -> Bool in
            guard !s.busy else { return false }
            s.job = job; s.busy = true
            return true
        }
    }

    /// When a frame finished since the last call: runs `body` with its record and the driver
    /// (whose framebuffer holds it) before the next frame starts, and returns true.
    @discardableResult
    public func takeFinished(_ body: (FrameRecord, FrameDriver) -> Void) -> Bool {
        guard let record = signal.withLock({ s -> FrameRecord? in s.finished.take() }) else { return false }
        driver.withLock { d in body(record, d) }
        return true
    }

    /// Runs `body` with the driver once no frame is being drawn (waits for one in flight).
    public func whenIdle(_ body: (FrameDriver) throws -> Void) rethrows {
        try driver.withLock { d in try body(d) }
    }

    /// Waits until a frame finishes or `seconds` pass; true when a finished frame is waiting.
    @discardableResult
    public func waitForFrame(seconds: Double) -> Bool {
        signal.wait(until: { $0.finished != nil }, timeout: max(0, seconds)) { _, ready in ready }
    }

    /// Stops the render thread (after the frame in flight).
    public func stop() { thread.stop() }
}

/// A job's view as an `EyeSource`, for `FrameDriver.renderFrame`.
private final class JobEyes: EyeSource {
    let job: AsyncFrameRenderer.Job
    init(job: AsyncFrameRenderer.Job) { self.job = job }
    var name: String { "async" }
    func view(frame index: Int) -> FrameView { job.view }
    func sceneTime(frame index: Int, view: FrameView) -> Double { job.sceneTime }
}
