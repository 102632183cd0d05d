// BenchmarkGovernor — `bench --target-fps N`: the frame-time governor run inside a bench, frame by
// frame, and what it did (the budget it settled on, the share of frames within the target, the
// lowest render scale, and the picture it bought against the whole capture from the same eye).
import Foundation
import RenderCore
import Viewer

/// What the governor did over a bench's measured frames (`bench --json`: `"governor"`).
public struct BenchmarkGovernorReport: Codable, Sendable, Equatable {
    /// The frame time it held to (ms): 1000 / `--target-fps`.
    public var targetMs: Double
    /// The median budget of the measured frames (splats).
    public var budgetMedian: Int
    /// The 95th percentile of the measured frames' render times (ms).
    public var frameP95Ms: Double = 0
    /// Share of measured frames whose render time was within the target (0…1).
    public var heldFraction: Double
    /// The lowest render scale it used (fraction of the frame's pixels per axis, 0…1).
    public var renderScaleMin: Double
    /// Budget or scale changes during the measured frames.
    public var changes: Int
    /// Splats of the whole capture.
    public var wholeSplats: Int
    /// PSNR (dB, RGB) of the measured frames against the whole capture drawn from the same eye:
    /// mean and lowest (a frame identical to it counts as 99 dB).
    public var psnrMean: Double?
    public var psnrMin: Double?
    /// Each measured frame's budget (splats), in order: how it settled.
    public var budgets: [Int] = []
    /// Seconds from the first frame to the first measured one whose picture is the whole
    /// capture's (≥ 50 dB against it; the reference's own drawing not counted): with a still eye (`--camera`), how soon the still head
    /// gets the whole picture (nil: never within the run, or pictures not measured).
    public var wholeAfterSeconds: Double?
}

/// The governor inside a bench: before each frame it sets the scene's budget and the frame's
/// size; after it, it feeds the governor the frame's render time and, for measured frames, draws
/// the whole capture from the same view to measure the picture against (outside the timing).
final class BenchmarkGovernorRun {
    let governor: FrameTimeGovernor
    let scene: BudgetedScene
    private var stillness = EyeStillness()
    private let reference: FrameDriver?
    private let fullSize: (width: Int, height: Int)
    private var budgets: [Int] = [], heldFrames = 0, measured = 0, scaleMin = 1.0, psnrs: [Double] = []
    private var changesAtStart = 0
    private var firstFrameStart: Double?, wholeAt: Double?, referenceSeconds = 0.0

    /// `scene` drawn at `targetFps`, the frame `width`×`height` at full scale; `scalesFrame` false
    /// (a camera JSON's fixed size) keeps scale 1; `start` is the first budget; `measuresQuality` draws the whole reference.
    init(scene: BudgetedScene, targetFps: Double, start: Int, width: Int, height: Int, setup: ViewingSetup,
         threads: Int, scalesFrame: Bool, measuresQuality: Bool) {
        self.scene = scene
        scene.pixelThreshold = FrameTimeGovernor.governedPixelThreshold
        fullSize = (width, height)
        var s = FrameTimeGovernor.Settings(targetMs: 1000 / targetFps, floor: scene.coarsestSplats, whole: scene.governedTop,
                                           start: start)
        if !scalesFrame { s.scales = [1] }
        governor = FrameTimeGovernor(s)
        reference = measuresQuality
            ? FrameDriver(scene: scene.wholeReference(), setup: setup, context: RenderContext(threads: threads, producesDepth: false),
                          width: width, height: height)
            : nil
    }

    /// Sets the next frame's budget and size.
    func beforeFrame(_ driver: FrameDriver) {
        scene.follow(governor)
        let s = governor.renderScale
        driver.resize(width: max(1, Int((Double(fullSize.width) * s).rounded())), height: max(1, Int((Double(fullSize.height) * s).rounded())))
    }

    /// Feeds the governor the frame just drawn; `measured` frames count in the report.
    func afterFrame(_ record: FrameRecord, driver: FrameDriver, measured isMeasured: Bool) {
        // The governor's clock leaves out the reference frames drawn between governed ones (the
        // whole 4M capture's first takes seconds): a still eye waits its `stillSeconds` of
        // governed frames, as in the window.
        let governorTime = record.complete - referenceSeconds
        if isMeasured {
            if measured == 0 { changesAtStart = governor.changes }
            measured += 1
            budgets.append(governor.budget)
            if record.renderMs <= governor.settings.targetMs { heldFrames += 1 }
            scaleMin = min(scaleMin, governor.renderScale)
            if let reference {
                reference.scene.background = scene.background
                let r0 = MonotonicClock.now()
                reference.render(record.view)
                psnrs.append(min(99, FrameComparison.psnr(driver.framebuffer, against: reference.framebuffer)))
                // The whole capture's picture (≥ 50 dB: the same to the eye) on screen.
                if wholeAt == nil, psnrs.last! >= 50, let start = firstFrameStart { wholeAt = record.complete - start - referenceSeconds }
                referenceSeconds += MonotonicClock.now() - r0   // not the governed frames' time
            }
        }
        if firstFrameStart == nil { firstFrameStart = record.renderStart }
        let eye: Vec3? = { if case .pose(let p) = record.view { return p.eye }; return nil }()
        // The governor is fed the frame as the window would time it: a bench decodes the chunks
        // a new level needs inside the frame (frame-exact), the window on loader threads. With
        // that time counted, a 4M capture's first frames at a new budget ran past twice the
        // target and the rung was barred (at 15 fps it settled at 152k with frames of 14 ms).
        // The report's frame times and held share still count the decoding.
        governor.frameFinished(ms: max(0, record.renderMs - record.stats.decodeMs), budgetBinds: scene.budgetBinds,
                               eyeStill: stillness.isStill(eye), stillViewReady: scene.stillViewReady, at: governorTime)

    }

    /// What it did over the measured frames.
    var report: BenchmarkGovernorReport {
        let sorted = budgets.sorted()
        return BenchmarkGovernorReport(
            targetMs: governor.settings.targetMs, budgetMedian: sorted.isEmpty ? 0 : sorted[sorted.count / 2],
            heldFraction: measured > 0 ? Double(heldFrames) / Double(measured) : 0, renderScaleMin: scaleMin,
            changes: governor.changes - changesAtStart, wholeSplats: governor.settings.whole,
            psnrMean: psnrs.isEmpty ? nil : psnrs.reduce(0, +) / Double(psnrs.count), psnrMin: psnrs.min(), budgets: budgets, wholeAfterSeconds: wholeAt)
    }
}
