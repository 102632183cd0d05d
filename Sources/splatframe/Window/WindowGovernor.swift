// WindowGovernor — the frame-time governor in the window: while the scene on show is a capture
// drawn through levels of detail whose budget nobody pinned, it sets the scene's budget and the
// frame's render scale before each frame and learns from what the frame took. A new scene gets a
// new governor (its own ladder and costs); other scenes are drawn as they are.
import Foundation
import HeadTracking
import RenderCore
import Viewer

/// The window's governor, one frame at a time (frame loop only).
struct WindowGovernor {
    /// The frame rate it holds (fps).
    let targetFps: Double
    /// Whether the render scale may drop (false with frames drawn on their own thread, whose
    /// size the warp presents: `--reproject async` governs the budget alone).
    let scalesFrame: Bool
    private(set) var governor: FrameTimeGovernor?
    /// Splats the last governed frame showed.
    private(set) var shownSplats: Int?
    /// The share of a still eye's splats decoded ahead at the last governed frame (0…1).
    private(set) var stillViewProgress = 1.0
    private var governed: ObjectIdentifier?
    private var stillness = EyeStillness()
    /// The recent frames' time outside rendering (ms).
    private var overheads: [Double] = [], scratch: [Double] = []

    init(targetFps: Double, scalesFrame: Bool = true) { self.targetFps = targetFps; self.scalesFrame = scalesFrame }

    /// The render rate `--reproject async` holds when none is named: half the display's rate,
    /// at most 30 fps. Every refresh is warped from the newest frame, so the renderer need not
    /// keep the display's pace; a slower one leaves the warp larger moves to cover (at 30 fps and
    /// a 0.25 m/s sway, ~8 mm).
    static func asyncTargetFps(refreshRate: Double) -> Double { min(30, refreshRate / 2) }

    /// The render scale for the next frame of `scene` (1 unless it is governed and the budget's
    /// floor cannot hold the target).
    mutating func renderScale(for scene: Scene) -> Double {
        follow(scene)
        return governor?.renderScale ?? 1
    }

    /// Before a frame of `scene`: its budget.
    mutating func beforeFrame(_ scene: Scene) {
        follow(scene)
        guard let governor, let s = scene as? BudgetedScene else { return }
        s.follow(governor)
    }

    /// After a frame of `scene`, drawn for `eye` (nil: no head) in `renderMs`, `frameMs` after
    /// the one before it was presented, presented at `time` (`MonotonicClock` seconds).
    ///
    /// The governor is given the render time against what the frame period leaves of it once
    /// the rest of the frame (events, overlays, present: the median of the last 15 frames) is
    /// paid — a cost no budget changes — but at least half the period, so that a slow present
    /// (a software renderer under Xvfb) does not starve the picture.
    mutating func afterFrame(_ scene: Scene, eye: Vec3?, renderMs: Double, frameMs: Double, at time: Double) {
        guard let governor, governed == ObjectIdentifier(scene) else { return }
        overheads.append(max(0, frameMs - renderMs))
        if overheads.count > 15 { overheads.removeFirst() }
        let period = 1000 / targetFps
        governor.settings.targetMs = max(period - FrameTimeGovernor.median(overheads, scratch: &scratch), period / 2)
        record(scene, governor, eye: eye, renderMs: renderMs, at: time)
    }

    /// After a frame of `scene` drawn on its own thread (`--reproject async`), for `eye`, in
    /// `renderMs`, finished at `time`: the render time against the target period itself (the
    /// presents run beside it, warped, at the display's rate).
    mutating func afterRenderedFrame(_ scene: Scene, eye: Vec3?, renderMs: Double, at time: Double) {
        guard let governor, governed == ObjectIdentifier(scene) else { return }
        governor.settings.targetMs = 1000 / targetFps
        record(scene, governor, eye: eye, renderMs: renderMs, at: time)
    }

    /// Gives `governor` a frame of `scene`: what it showed, whether its budget bound, whether the
    /// eye was still and the still view decoded.
    private mutating func record(_ scene: Scene, _ governor: FrameTimeGovernor, eye: Vec3?, renderMs: Double, at time: Double) {
        shownSplats = scene.primitiveCount
        let budgeted = scene as? any BudgetedScene
        stillViewProgress = budgeted?.stillViewProgress ?? 1
        governor.frameFinished(ms: renderMs, budgetBinds: budgeted?.budgetBinds ?? false, eyeStill: stillness.isStill(eye),
                               stillViewReady: budgeted?.stillViewReady ?? true, at: time)
    }

    /// While the picture refines for a still eye: a check, safe on the render workers, that the
    /// head has moved since the frame began — the newest raw sample more than `abandonDistance`
    /// from the one the frame began with (raw: it moves before the filter does). Nil otherwise.
    func abandonCheck(source: any PoseSource) -> (@Sendable () -> Bool)? {
        guard governor?.isRefining == true, let start = source.latest()?.position else { return nil }
        let limit = Self.abandonDistance
        return { source.latest().map { let d = $0.position - start; return (d * d).sum() > limit * limit } ?? false }
    }

    /// How far (metres) the raw head may move before a still eye's long frame is abandoned: above
    /// a webcam's raw jitter (about a millimetre), far below a deliberate move.
    static let abandonDistance = 0.004

    /// The frame was abandoned because the head moved: the governed budget again, at once.
    func frameAbandoned() { governor?.frameAbandoned() }

    /// The HUD's line: what the governor chose, and why.
    var summary: String? {
        guard let g = governor else { return nil }
        let scale = g.renderScale < 1 ? String(format: ", render scale %.2f", g.renderScale) : ""
        let still = g.isRefining ? (g.drawsWhole ? "; eye still: the whole capture" : "; eye still: refining")
            : g.awaitsStillView ? String(format: "; eye still: loading the whole capture (%.0f %%)", 100 * stillViewProgress) : ""
        return String(format: "governor: %@ of %@ splats for %.0f fps%@%@", Self.count(g.budget), Self.count(g.settings.whole), targetFps, scale, still)
    }

    /// Starts (or drops) the governor when the scene changes.
    private mutating func follow(_ scene: Scene) {
        let id = ObjectIdentifier(scene)
        guard id != governed else { return }
        governed = id
        governor = nil
        overheads.removeAll()
        guard let s = scene as? BudgetedScene, !s.budgetIsPinned, s.wholeSplats > 0 else { return }
        let start = s.splatBudget ?? s.wholeSplats
        s.pixelThreshold = FrameTimeGovernor.governedPixelThreshold
        // The ladder's top is the whole capture, or as much of it as the memory bound allows.
        let top = s.governedTop
        var settings = FrameTimeGovernor.Settings(targetMs: 1000 / targetFps, floor: min(s.coarsestSplats, start, top), whole: top,
                                                  start: min(start, top))
        if !scalesFrame { settings.scales = [1] }
        governor = FrameTimeGovernor(settings)
    }

    private static func count(_ n: Int) -> String {
        n >= 1_000_000 ? String(format: "%.2fM", Double(n) / 1e6) : n >= 10_000 ? String(format: "%.0fk", Double(n) / 1e3) : "\(n)"
    }
}
