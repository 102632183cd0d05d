// AsyncPresentation — `--reproject async`: frames drawn on their own thread
// (`AsyncFrameRenderer`), and every display refresh shows the newest one warped to the eye read
// at that refresh (`LateLatch`), so a heavy scene drawn at 20 fps is shown at the display's rate.
// The window and the rig present through it alike.
import Foundation
import HeadTracking
import RenderCore
import Viewer

/// Asynchronous presentation, shared by the window and the rig: the renderer kept busy, its
/// finished frames made the warp's source, and presents paced at the display's refresh.
/// Frame loop only.
public final class AsyncPresentation {
    public let renderer: AsyncFrameRenderer
    /// Warps the newest finished frame to each refresh's eye (on the frame loop's thread alone:
    /// the renderer has the cores).
    public let latch = LateLatch(threads: 1)
    /// Seconds between presents: the display's refresh period.
    public let period: Double
    /// The frame on show (its record).
    public private(set) var shown: FrameRecord?
    /// Pose read for a render → that frame finished: the lead its eye is predicted over.
    public private(set) var renderLead = 0.0
    private var renderLeads = PresentLeadEstimator()
    private var submitted: Double?
    private var nextIndex = 0
    private var deadline = 0.0

    /// Takes `driver` (reached only through `renderer` from now on); presents at `refreshRate` Hz.
    public init(driver: FrameDriver, refreshRate: Double) {
        renderer = AsyncFrameRenderer(driver: driver)
        period = 1 / min(240, max(10, refreshRate))
    }

    /// Keeps the renderer busy until the display's next refresh: picks up each finished frame
    /// (it becomes the warp's source; `finished` hears its record and may read the driver, idle
    /// meanwhile) and starts the next one when the renderer is free, with the eye `eyes` gives
    /// predicted to when that frame will be finished (`tracker`'s lead set to `renderLead`) —
    /// each refresh then warps it to its own eye — seen through `setup` at `width`×`height`.
    public func waitForRefresh(eyes: EyeSource, tracker: HeadTracker, setup: ViewingSetup, width: Int, height: Int,
                               finished: (FrameRecord, FrameDriver) -> Void) {
        func pump() { self.pump(eyes: eyes, tracker: tracker, setup: setup, width: width, height: height, finished: finished) }
        pump()
        while true {
            let now = MonotonicClock.now()
            guard now < deadline else { break }
            if renderer.waitForFrame(seconds: deadline - now) { pump() }
        }
        deadline = max(deadline + period, MonotonicClock.now())
    }

    private func pump(eyes: EyeSource, tracker: HeadTracker, setup: ViewingSetup, width: Int, height: Int,
                      finished: (FrameRecord, FrameDriver) -> Void) {
        var taken = false
        renderer.takeFinished { record, driver in
            guard latch.setSource(record, driver: driver) else { return }
            taken = true
            shown = record
            finished(record, driver)
        }
        if taken, let s = submitted { renderLead = renderLeads.presented(at: MonotonicClock.now(), viewTime: s) }
        guard !renderer.isBusy else { return }
        tracker.presentLead = renderLead
        let view = eyes.view(frame: nextIndex)
        let job = AsyncFrameRenderer.Job(view: view, sceneTime: eyes.sceneTime(frame: nextIndex, view: view), setup: setup,
                                         width: width, height: height, index: nextIndex)
        if renderer.submit(job) {
            submitted = MonotonicClock.now()
            nextIndex += 1
        }
    }
}
